import ServiceMatching
import VaultAgent
import VaultCrypto
import VaultModel

/// `pwtui copy`: the best match's password to the clipboard, as the picker hands a choice over
/// to a person, without the picker — and whatever stdout is (`get` is the command for a pipe).
/// An unlocked agent answers at once; otherwise the vault is unlocked here.
public struct CopyPassword {
    public var query: CredentialQuery

    public init(query: CredentialQuery) {
        self.query = query
    }

    public func run(in session: Session) throws {
        let timeout = try session.settings().clipboardTimeout
        if let answer = try session.agent?.get(query, field: .password, vault: session.vaultPath) {
            guard case .credential(let identity, _, let tied) = answer.body else { throw AgentError.unexpected(answer.body) }
            try Handover.copy(answer.payload, of: "\(identity.displayTitle) (\(identity.username))", clipboardTimeout: timeout,
                              in: session)
            TieNotice.say(tied: tied, chosen: identity, query: query, in: session)
            return
        }
        let vault = try session.openVault()
        let (credential, tied) = try session.rankedAnswer(query, in: vault)
        try Handover.copy(try CredentialField.password.render(credential, from: vault),
                          of: "\(credential.displayTitle) (\(credential.username))", clipboardTimeout: timeout,
                          in: session)
        TieNotice.say(tied: tied, chosen: IdentityStore.Identity(credential), query: query, in: session)
    }
}
