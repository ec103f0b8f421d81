import Foundation

/// The credential identity store (AutoFill's `ASCredentialIdentityStore`): what can be shown and
/// ranked without unlocking — per credential its id, title, username, services and rank; never a
/// secret, never notes. It lives in `$XDG_STATE_HOME/pwtui/identities`, is never synced, and is
/// written atomically with mode 0600.
///
/// It remembers which vault (id) and which save (generation) it mirrors. After a save by this
/// process it is updated incrementally — only the records that changed are replaced — when it was
/// current before the save (AutoFill's `supportsIncrementalUpdates`); otherwise, and whenever it is
/// missing or its generation does not match the vault file's, it is rebuilt in full the next time
/// the vault is unlocked.
///
/// It also keeps the vault's equivalent-domain groups (not secret either), so that suggestions
/// rank as an unlocked vault would.
///
/// Format (binary, little-endian, because `suggest` reads it on every call and JSON parsing of
/// 10,000 identities cost 80 ms): "PWIS", u8 format 2, u8 id length, the vault id, u64
/// generation; u32 group count, each a u32 count of strings; u32 identity count, each 16 id
/// bytes, title, username, i32 rank, u32 count of services, each its text and its normalised
/// host. A string is a u32 length and UTF-8. The hosts let `suggest` skip, unparsed, every
/// identity a `HostFilter` rules out. A file that does not parse is treated as missing (and
/// rebuilt at the next unlock).
public struct IdentityStore: Equatable, Sendable {
    public struct Identity: Equatable, Sendable {
        public let id: UUID
        public let title: String
        public let username: String
        public let services: [String]
        /// The services' hosts as ranking compares them (lowercased, IDN in `xn--` form).
        public let hosts: [String]
        public let rank: Int32

        public init(_ credential: Credential) {
            id = credential.id
            title = credential.title
            username = credential.username
            services = credential.services.map(\.text)
            hosts = credential.services.map(\.host)
            rank = credential.rank
        }

        /// `hosts`: nil to parse them from `services`.
        public init(id: UUID, title: String, username: String, services: [String], hosts: [String]? = nil, rank: Int32) {
            self.id = id
            self.title = title
            self.username = username
            self.services = services
            self.hosts = hosts ?? services.map { (try? ServiceIdentifier($0))?.host ?? "" }
            self.rank = rank
        }

        /// The title, or the first service when no title was given (as `Credential.displayTitle`).
        public var displayTitle: String { title.isEmpty ? (services.first ?? "") : title }

        /// The identity as a credential without a secret, for ranking: its secret reference
        /// points at nothing, and nothing that ranks or lists reads secrets.
        public func secretlessCredential() throws -> Credential {
            Credential(id: id, title: title, services: try services.map { try ServiceIdentifier($0) }, username: username,
                       secret: SecretReference(offset: 0, count: 0), rank: rank,
                       created: Timestamp(millisecondsSince1970: 0), modified: Timestamp(millisecondsSince1970: 0))
        }
    }

    public private(set) var vaultID: [UInt8]
    public private(set) var generation: UInt64
    public private(set) var identities: [Identity]
    public private(set) var equivalents: EquivalentDomains
    /// False when loaded with a filter: only some identities are here.
    public private(set) var isComplete = true

    /// A full rebuild from an unlocked vault.
    public init(vault: Vault) {
        vaultID = vault.header.vaultID
        generation = vault.header.generation
        identities = vault.contents.credentials.map(Identity.init)
        equivalents = vault.contents.equivalents
    }

    /// Whether the store mirrors the vault file with this header.
    public func isCurrent(for header: VaultHeader) -> Bool {
        header.vaultID == vaultID && header.generation == generation
    }

    /// Brings the store up to date with `vault` after a save. `previousGeneration` is the
    /// vault's generation before that save: if the store mirrored it, only changed identities are
    /// replaced; otherwise the store is rebuilt. Returns how many identities were written anew.
    @discardableResult
    public mutating func update(from vault: Vault, previousGeneration: UInt64) -> Int {
        guard isComplete, vaultID == vault.header.vaultID, generation == previousGeneration else {
            self = IdentityStore(vault: vault)
            return identities.count
        }
        var current: [UUID: Identity] = [:]
        for credential in vault.contents.credentials { current[credential.id] = Identity(credential) }
        var changed = 0
        identities.removeAll { identity in
            guard let now = current[identity.id] else {
                changed += 1
                return true
            }
            return false
        }
        for index in identities.indices {
            if let now = current.removeValue(forKey: identities[index].id), now != identities[index] {
                identities[index] = now
                changed += 1
            }
        }
        for credential in vault.contents.credentials where current[credential.id] != nil {
            identities.append(Identity(credential))
            changed += 1
        }
        generation = vault.header.generation
        equivalents = vault.contents.equivalents
        return changed
    }

    // MARK: File

    private static let magic = Array("PWIS".utf8)
    private static let format: UInt8 = 2

    /// The store at `path`, or nil when there is none or it does not parse. `filter`: only the
    /// identities with a host it lets through are built (for ranking them right away); such a
    /// partial store cannot be saved.
    public static func load(from path: String, filter: ((EquivalentDomains) -> HostFilter)? = nil) -> IdentityStore? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return data.withUnsafeBytes { bytes in try? decode(bytes, filter: filter) }
    }

    private struct Malformed: Error {}

    package static func decode(_ bytes: UnsafeRawBufferPointer, filter makeFilter: ((EquivalentDomains) -> HostFilter)?) throws -> IdentityStore {
        var cursor = ByteCursor(bytes: bytes) { _ in Malformed() }
        guard try cursor.take(4).elementsEqual(magic), try cursor.u8() == format else { throw Malformed() }
        let vaultID = Array(try cursor.take(Int(try cursor.u8())))
        let generation = try cursor.u64()
        func raw() throws -> UnsafeRawBufferPointer { try cursor.take(Int(try cursor.u32())) }
        func text(_ bytes: UnsafeRawBufferPointer) throws -> String {
            guard let text = String(validating: bytes, as: UTF8.self) else { throw Malformed() }
            return text
        }
        /// A count of things that take at least a byte each cannot exceed what is left.
        func count() throws -> Int {
            let count = Int(try cursor.u32())
            guard count <= cursor.end - cursor.position else { throw Malformed() }
            return count
        }
        var groups: [[String]] = []
        for _ in 0 ..< (try count()) { groups.append(try (0 ..< (try count())).map { _ in try text(try raw()) }) }
        let equivalents = EquivalentDomains(groups: groups)
        let filter = makeFilter?(equivalents)
        var identities: [Identity] = []
        var services: [(text: UnsafeRawBufferPointer, host: UnsafeRawBufferPointer)] = []
        for _ in 0 ..< (try count()) {
            let id = try cursor.uuid()
            let title = try raw()
            let username = try raw()
            let rank = Int32(bitPattern: try cursor.u32())
            services.removeAll(keepingCapacity: true)
            for _ in 0 ..< (try count()) { services.append((try raw(), try raw())) }
            if let filter, !services.contains(where: { filter.mayMatch(host: $0.host) }) { continue }
            identities.append(Identity(id: id, title: try text(title), username: try text(username),
                                       services: try services.map { try text($0.text) },
                                       hosts: try services.map { try text($0.host) }, rank: rank))
        }
        guard cursor.isAtEnd else { throw Malformed() }
        return IdentityStore(vaultID: vaultID, generation: generation, identities: identities,
                             equivalents: equivalents, isComplete: filter == nil)
    }

    private init(vaultID: [UInt8], generation: UInt64, identities: [Identity], equivalents: EquivalentDomains, isComplete: Bool) {
        self.vaultID = vaultID
        self.generation = generation
        self.identities = identities
        self.equivalents = equivalents
        self.isComplete = isComplete
    }

    public func save(to path: String) throws {
        guard isComplete else { throw VaultError.invalidRequest("a filtered identity store cannot be saved") }
        var bytes = Self.magic + [Self.format, UInt8(vaultID.count)] + vaultID
        func append<Integer: FixedWidthInteger>(_ value: Integer) {
            withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
        }
        func append(_ text: String) {
            append(UInt32(text.utf8.count))
            bytes.append(contentsOf: text.utf8)
        }
        func append(_ texts: [String]) {
            append(UInt32(texts.count))
            texts.forEach(append)
        }
        append(generation)
        append(UInt32(equivalents.groups.count))
        equivalents.groups.forEach(append)
        append(UInt32(identities.count))
        for identity in identities {
            withUnsafeBytes(of: identity.id.uuid) { bytes.append(contentsOf: $0) }
            append(identity.title)
            append(identity.username)
            append(UInt32(bitPattern: identity.rank))
            append(UInt32(identity.services.count))
            for (text, host) in zip(identity.services, identity.hosts) {
                append(text)
                append(host)
            }
        }
        try AtomicFile.write(Data(bytes), to: path)
    }

    /// Removes the store (the setting is off): no such file exists at all then.
    public static func remove(at path: String) {
        try? FileManager.default.removeItem(atPath: path)
    }
}
