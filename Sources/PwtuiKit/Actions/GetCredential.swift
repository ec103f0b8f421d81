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
        sayTimeLeft(IdentityStore.Identity(credential))
    }

    private func sayTimeLeft(_ identity: IdentityStore.Identity) {
        guard saysTimeLeft, let period = identity.oneTime?.period, FileDescriptor.standardOutput.isTerminal else { return }
        let seconds = Clock.system.now().millisecondsSince1970 / 1000
        StandardError.say("(valid for \(period - Int(seconds % Int64(period))) more seconds)")
    }
}
