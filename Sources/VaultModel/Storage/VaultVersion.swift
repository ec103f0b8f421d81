/// Which version of a vault a file holds: the generation of its snapshot (one more per snapshot
/// written) and the journal records after it (`VaultJournal`). Later versions compare higher,
/// which is what tells an older copy from the vault as last seen (`GenerationMemory`).
public struct VaultVersion: Comparable, Hashable, Sendable, CustomStringConvertible {
    public let generation: UInt64
    /// The journal records after the snapshot.
    public let changes: UInt64

    public init(generation: UInt64, changes: UInt64 = 0) {
        self.generation = generation
        self.changes = changes
    }

    public static func < (a: VaultVersion, b: VaultVersion) -> Bool {
        (a.generation, a.changes) < (b.generation, b.changes)
    }

    public var description: String {
        changes == 0
            ? "generation \(generation)"
            : "generation \(generation) with \(changes) change\(changes == 1 ? "" : "s") after it"
    }
}
