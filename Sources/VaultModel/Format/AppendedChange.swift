import FoundationEssentials

/// What one journal record changed (`VaultJournal`): the credentials it touched, by id, whether
/// it changed the equivalent domains, and the version of the vault it followed. What the record
/// holds, and what the identity store follows to stay in step for the cost of the change
/// (`IdentityStore.Change`).
public struct AppendedChange: Equatable, Sendable {
    public let ids: Set<UUID>
    public let equivalents: Bool
    /// The version the record was appended to.
    public let after: VaultVersion

    init(_ changes: [VaultChange], after: VaultVersion) {
        var ids: Set<UUID> = []
        var equivalents = false
        for change in changes {
            switch change {
            case .add(let credential): ids.insert(credential.id)
            case .update(let id, _, _), .replaceSecret(let id, _, _), .remove(let id, _),
                .setOneTimeKey(let id, _, _), .setField(let id, _, _, _):
                ids.insert(id)
            case .equivalents: equivalents = true
            }
        }
        self.ids = ids
        self.equivalents = equivalents
        self.after = after
    }
}
