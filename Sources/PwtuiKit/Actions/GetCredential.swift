import Platform
import ServiceMatching
import VaultAgent
import VaultCrypto
import VaultModel

/// `pwtui get`: one field of the best match (or of one id) on stdout, without a screen; an
/// unlocked agent answers at once, otherwise the vault is unlocked here.
public struct GetCredential {
    public var query: CredentialQuery
    public var field: CredentialField
    /// Exit 75 rather than ask for the master password.
    public var noInteraction: Bool
    /// For a one-time code on a terminal: how many seconds it stays valid, on stderr.
    public var saysTimeLeft = false

    public init(query: CredentialQuery, field: CredentialField, noInteraction: Bool) {
        self.query = query
        self.field = field
        self.noInteraction = noInteraction
    }

    public func run(in session: Session) throws {
        if let answer = try session.agent?.get(query, field: field, vault: session.vaultPath) {
            try StandardOutput.write(answer.payload)
            if case .credential(let identity, _, let tied) = answer.body {
                TieNotice.say(tied: tied, chosen: identity, query: query)
                sayIfNotSaved(identity, session)
                sayTimeLeft(identity)
            }
            return
        }
        if noInteraction, session.masterPasswordFD == nil {
            throw CommandFailure(.interactionRequired, "the vault is locked and --no-interaction forbids asking for the master password")
        }
        let vault = try session.openVault()
        let (credential, tied) = try session.rankedAnswer(query, in: vault)
        try StandardOutput.write(try field.render(credential, from: vault))
        TieNotice.say(tied: tied, chosen: IdentityStore.Identity(credential), query: query)
        sayIfNotSaved(IdentityStore.Identity(credential), session)
        sayTimeLeft(IdentityStore.Identity(credential))
    }

    /// `get SERVICE --id ID` hands over that credential whatever it is saved for; when that is
    /// not the service (in no tier, show-all's "none"), the person learns it was the id's doing.
    private func sayIfNotSaved(_ identity: IdentityStore.Identity, _ session: Session) {
        guard query.id != nil, !query.services.isEmpty else { return }
        let context = session.rankingContext(equivalents: EquivalentDomains())
        let stored = identity.services.compactMap { try? ServiceIdentifier(stored: $0) }
        let matches = query.services.contains { request in
            stored.contains { ServiceMatch.tier(stored: $0, request: request, context: context) != nil }
        }
        guard !matches else { return }
        StandardError.say("pwtui: \(identity.displayTitle) (\(identity.username)) is not saved for "
            + "\(query.services.map(\.text).joined(separator: " ")); given because --id names it.")
    }

    private func sayTimeLeft(_ identity: IdentityStore.Identity) {
        guard saysTimeLeft, let period = identity.oneTime?.period, FileDescriptor.standardOutput.isTerminal else { return }
        let seconds = Clock.system.now().millisecondsSince1970 / 1000
        StandardError.say("(valid for \(period - Int(seconds % Int64(period))) more seconds)")
    }
}
