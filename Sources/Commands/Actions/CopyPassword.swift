import ServiceMatching
import VaultAgent
import VaultCrypto
import VaultModel

/// `pwtui copy`: the best match's password to the clipboard, as the picker hands a choice over
/// to a person, without the picker — and whatever stdout is (`get` is the command for a pipe).
/// An unlocked agent answers at once (and an older vault file is warned of, as `get` does);
/// otherwise the vault is unlocked here.
public struct CopyPassword {
    public var query: CredentialQuery

    public init(query: CredentialQuery) {
        self.query = query
    }

    public func run(in context: CommandContext) throws {
        let timeout = try context.settings().clipboardTimeout
        if let answer = try VaultAccess.ask(.get(vault: context.vaultPath, query: query, field: .password), in: context)
        {
            guard case .credential(let identity, _, let tied) = answer.body else {
                throw AgentError.unexpected(answer.body)
            }
            try Handover.copy(
                answer.payload, of: identity.titleAndUsername, clipboardTimeout: timeout,
                in: context)
            TieNotice.say(tied: tied, chosen: identity, query: query, in: context)
            return
        }
        let vault = try context.openVault()
        let (credential, tied) = try context.rankedAnswer(query, in: vault)
        try Handover.copy(
            try CredentialField.password.render(credential, from: vault),
            of: credential.titleAndUsername, clipboardTimeout: timeout,
            in: context)
        TieNotice.say(tied: tied, chosen: IdentityStore.Identity(credential), query: query, in: context)
    }
}
