import ServiceMatching

/// `pwtui equivalents add|rm`: a change to the vault's own equivalent domains, wherever the vault
/// is open (here, or in the agent), applied by the same code on both sides.
public enum EquivalentsChange: Codable, Sendable, Equatable {
    /// Declares the domains (normalised, two or more) one site; a domain already in a group
    /// brings its group.
    case add([String])
    /// Takes the domains out of their groups (a group left with one domain is dropped).
    case remove([String])

    /// Applies the change to `vault` (not saved): the group the first domain is now in (for
    /// `add`), and the domains that were in no group (for `remove`). Refuses a removal that
    /// would change nothing.
    public func apply(to vault: Vault) throws -> (group: [String]?, unknown: [String]) {
        switch self {
        case .add(let domains):
            vault.updateEquivalents { $0.add(domains, at: $1) }
            return (domains.first.flatMap { vault.contents.equivalents.group(containing: $0) }?.sorted(), [])
        case .remove(let domains):
            var unknown: [String] = []
            vault.updateEquivalents { unknown = $0.remove(domains, at: $1) }
            guard unknown.count < domains.count else {
                throw VaultError.noMatch("\(unknown.joined(separator: " ")) in no group; nothing changed")
            }
            return (nil, unknown)
        }
    }
}
