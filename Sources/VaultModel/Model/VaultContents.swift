import FoundationEssentials
import ServiceMatching

/// The decrypted contents of a vault: the credentials, the tombstones of deleted ones, and the
/// arena holding every secret they reference.
public struct VaultContents {
    public internal(set) var credentials: [Credential]
    public internal(set) var tombstones: [Tombstone]
    public internal(set) var equivalents: EquivalentDomains
    public let secrets: SecretArena

    public init(
        credentials: [Credential] = [], tombstones: [Tombstone] = [],
        equivalents: EquivalentDomains = EquivalentDomains(), secrets: SecretArena
    ) {
        self.credentials = credentials
        self.tombstones = tombstones
        self.equivalents = equivalents
        self.secrets = secrets
    }

    public static func empty() throws -> VaultContents {
        VaultContents(secrets: try SecretArena())
    }

    /// The same contents with a secret arena of their own: what long work in the agent reads
    /// outside its turns, while writes append to (and may move) the vault's own arena.
    public func snapshot() throws -> VaultContents {
        VaultContents(
            credentials: credentials, tombstones: tombstones, equivalents: equivalents, secrets: try secrets.copy())
    }

    /// Whether any credential is bound to programs: only then is it worth learning who asks
    /// (a walk through /proc on every answer otherwise). Asked on every `get`, so each is read in
    /// place (`index(of:)`): iterating copied each credential, 3 % of the agent's CPU at 10,000.
    public var hasBoundCredentials: Bool {
        credentials.indices.contains { !credentials[$0].allowedPrograms.isEmpty }
    }

    public func credential(withID id: UUID) -> Credential? {
        index(of: id).map { credentials[$0] }
    }

    /// Where the credential `id` is. Its id is read in place: iterating the credentials copies
    /// each one (two dozen retains), which was most of a `get --id` over 10,000, by perf.
    func index(of id: UUID) -> Int? {
        credentials.indices.first { credentials[$0].id == id }
    }

    /// Where the credentials `ids` are, in the vault's order; ids not there are left out: what a
    /// journal record and the identity store's follow-up look up. A few ids (an add, an edit)
    /// are each looked for from the end, where a change's credentials usually are: asking the
    /// set about every credential hashed 100,000 ids per `add` (a third of it, by perf). Many (an
    /// import) are found in one pass, so that the cost stays one pass over the vault whatever
    /// the change.
    public func positions(of ids: Set<UUID>) -> [Int] {
        guard ids.count > Self.idsLookedUpOneByOne else {
            return ids.compactMap { id in credentials.indices.reversed().first { credentials[$0].id == id } }.sorted()
        }
        return credentials.indices.filter { ids.contains(credentials[$0].id) }
    }

    static let idsLookedUpOneByOne = 16
}
