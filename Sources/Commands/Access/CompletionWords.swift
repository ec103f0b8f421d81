import FoundationEssentials
import VaultModel

/// What the shell offers when a person presses Tab after `get`, `show`, `edit` and the others:
/// the vault's titles, services and ids, from the identity store, so completing never asks for
/// the master password (and offers nothing while the store is off, missing or stale).
///
/// The shell runs `pwtui ---completion …` on every Tab: the words come from the store file
/// alone, with no vault opened and no agent asked.
public enum CompletionWords {
    /// Services (as saved, and their hosts), titles and id prefixes starting with `prefix`.
    /// `services`: the words for a SERVICE argument; otherwise (a credential named by id, service
    /// or title) titles and ids too.
    public static func words(prefix: String, services: Bool, in context: CommandContext) -> [String] {
        guard let store = try? context.currentIdentityStore() else { return [] }
        var words: Set<String> = []
        for identity in store.identities {
            words.formUnion(identity.services)
            words.formUnion(identity.hosts.filter { !$0.isEmpty })
            if !services {
                if !identity.title.isEmpty { words.insert(identity.title) }
                words.insert(String(identity.id.uuidString.lowercased().prefix(8)))
            }
        }
        let wanted = prefix.lowercased()
        return words.filter { $0.lowercased().hasPrefix(wanted) }.sorted()
    }
}
