import FoundationEssentials
import VaultAgent
import VaultModel
import ServiceMatching

/// What `list` and `equivalents list` show — identities and equivalent-domain groups, never a
/// secret — from the cheapest source that is up to date:
///
/// 1. the identity store, when it mirrors the vault file as it is on disk now (its header is
///    read without the password): nothing is unlocked, no key is derived;
/// 2. else an unlocked agent that holds this vault;
/// 3. else the vault itself, unlocked here with the master password (which also rebuilds the
///    store, so the next listing takes the first way).
///
/// A full key derivation made `list` cost 131 ms for 1,000 credentials, against 15 ms for
/// age's `tree`, to print what the store already held. What the first two lack are the
/// credentials' times, which only the vault keeps: `times` says whether they are real.
public struct ListedIdentities {
    public enum Source: String {
        case identityStore = "identity store", agent, vault
    }

    public let credentials: [Credential]
    public let equivalents: EquivalentDomains
    public let source: Source
    /// The vault, when it was unlocked here: ranking then uses its own context.
    public let vault: Vault?

    /// Whether `created` and `modified` are the credentials' own (only the vault has them).
    public var times: Bool { source == .vault }

    public static func load(_ context: CommandContext) throws -> ListedIdentities {
        let path = context.vaultPath
        try VaultStorage.requireVaultFile(path)
        // Missing, stale, switched off or unreadable: the next source answers (or says why not).
        if let store = try? context.currentIdentityStore() {
            return ListedIdentities(
                credentials: try store.identities.map { try $0.secretlessCredential() },
                equivalents: store.equivalents, source: .identityStore, vault: nil)
        }
        // An agent that is locked, holds another vault or fails is not asked again: unlock here.
        if let listed = (try? VaultAccess.agentIdentities(of: path, in: context)) ?? nil {
            return ListedIdentities(
                credentials: try listed.identities.map { try $0.secretlessCredential() },
                equivalents: listed.equivalents, source: .agent, vault: nil)
        }
        let vault = try context.openVault()
        return ListedIdentities(
            credentials: vault.contents.credentials, equivalents: vault.contents.equivalents,
            source: .vault, vault: vault)
    }

    /// How ranking sees these credentials: the vault's context, or the equivalents listed with them.
    public func rankingContext(_ context: CommandContext) -> RankingContext {
        vault.map { context.rankingContext(for: $0) } ?? context.rankingContext(equivalents: equivalents)
    }
}
