import FoundationEssentials
import Platform
import ServiceMatching
import VaultCrypto

// The identity store's journal: the store followed for the cost of a change.
//
// The store mirrors every credential's identity, so rewriting it after each save cost what the
// vault's whole-file save did, and grew with it. Since the vault appends its changes to a
// journal (`VaultJournal`), the store does the same: beside `identities/<vault>` a file
// `<vault>.journal` holds one record per save, each the identities (and SSH keys' public halves)
// of the credentials that save touched, as they are after it, and the version it brings the
// store to:
//
//     record := u32 n, body (n bytes), 32-byte tag
//     tag    := BLAKE2b keyed with the store's key, over the previous tag and the body; the
//               first record's previous tag is the store file's own
//     body   := u64 generation, u64 records (the vault's version after the save), u8 1 and the
//               equivalent groups or u8 0, u32 count, then per credential: its id, u8 flags
//               (1: an identity follows, 2: an SSH key follows, 4: a keyring item's attribute
//               digests follow; none: it is gone), the identity, the SSH key, the digests
//
// The store is a cache, and the journal one too. A reader applies the records whose tags verify,
// in order, and stops at the first that does not (a torn end, damage, or the journal of a store
// since rewritten, whose chain starts from another tag): the store is then older than the vault,
// which `suggest` says, and the next save writes it whole. A writer appends only when the store
// and its journal are at the version the vault had before the save, and rewrites the store whole
// (removing the journal under the same lock) when they are not, or when the journal has grown
// past its bound: a fixed size, so that checking it before each append costs the same at any
// size of vault.
extension IdentityStore {
    /// The journal's bound: past it, the next save rewrites the store whole.
    static let journalBound = 256 * 1024

    static func journalPath(of path: String) -> String { path + ".journal" }

    /// One save's change to the store.
    public struct Change: Equatable, Sendable {
        public struct Entry: Equatable, Sendable {
            public let id: UUID
            /// The credential's identity now; nil when it is gone.
            public let identity: Identity?
            /// Its SSH key's public half now; nil when it has none (gone, not a key, bound to programs).
            public let sshKey: SSHPublicKey?
            /// Its attribute digests now, when it is a keyring item.
            public var keyringItem: LockedKeyringItem? = nil
        }

        /// The vault's version after the save.
        public let version: VaultVersion
        public let equivalents: EquivalentDomains?
        public let entries: [Entry]

        /// The change `appended` made to `vault`, as `vault` is now (at `vault.version`).
        public init(_ appended: AppendedChange, in vault: Vault) {
            version = vault.version
            equivalents = appended.equivalents ? vault.contents.equivalents : nil
            // In the vault's order, so that added identities come in the order a rebuild lists them.
            let present = vault.contents.positions(of: appended.ids).map { vault.contents.credentials[$0] }
            let vaultID = vault.header.vaultID
            var entries = present.map { credential in
                Entry(
                    id: credential.id, identity: Identity(credential), sshKey: SSHPublicKey(credential),
                    keyringItem: LockedKeyringItem(credential, vaultID: vaultID))
            }
            let gone = appended.ids.subtracting(present.map(\.id))
            entries += gone.sorted { $0.uuidString < $1.uuidString }.map { Entry(id: $0, identity: nil, sshKey: nil) }
            self.entries = entries
        }

        init(version: VaultVersion, equivalents: EquivalentDomains?, entries: [Entry]) {
            self.version = version
            self.equivalents = equivalents
            self.entries = entries
        }

        var body: [UInt8] {
            var writer = IdentityStoreWriter()
            writer.integer(version.generation)
            writer.integer(version.changes)
            if let equivalents {
                writer.bytes.append(1)
                writer.groups(equivalents.groups)
            } else {
                writer.bytes.append(0)
            }
            writer.integer(UInt32(entries.count))
            for entry in entries {
                writer.uuid(entry.id)
                writer.bytes.append(
                    (entry.identity == nil ? 0 : 1) | (entry.sshKey == nil ? 0 : 2) | (entry.keyringItem == nil ? 0 : 4)
                )
                if let identity = entry.identity { writer.identity(identity) }
                if let sshKey = entry.sshKey { writer.sshKey(sshKey) }
                if let item = entry.keyringItem { writer.lockedKeyringItem(item) }
            }
            return writer.bytes
        }

        /// A record's body; identities `filter` rules out are read as gone (from a filtered store).
        static func decode(_ body: UnsafeRawBufferPointer, filter: HostFilter?) throws -> Change {
            var reader = IdentityStoreReader(body)
            let version = VaultVersion(generation: try reader.cursor.u64(), changes: try reader.cursor.u64())
            let equivalents = try reader.cursor.u8() == 1 ? EquivalentDomains(groups: try reader.groups()) : nil
            var entries: [Entry] = []
            for _ in 0 ..< (try reader.count()) {
                let id = try reader.cursor.uuid()
                let flags = try reader.cursor.u8()
                let identity = flags & 1 == 0 ? nil : try reader.identity(filter: filter)
                let sshKey = flags & 2 == 0 ? nil : try reader.sshKey()
                let item = flags & 4 == 0 ? nil : try reader.lockedKeyringItem()
                entries.append(Entry(id: id, identity: identity, sshKey: sshKey, keyringItem: item))
            }
            guard reader.cursor.isAtEnd else { throw IdentityStoreReader.Malformed() }
            return Change(version: version, equivalents: equivalents, entries: entries)
        }
    }

    /// The journal's records in `journal` whose tags verify from `tag` (the store's), in order,
    /// with where the verified part ends and the last tag.
    static func verifiedRecords(_ journal: [UInt8], tag: [UInt8], key: borrowing SecureBytes) -> (
        bodies: [Range<Int>], end: Int, tag: [UInt8]
    ) {
        var bodies: [Range<Int>] = []
        var position = 0
        var last = tag
        while journal.count - position >= 4 + BLAKE2b.digestByteCount {
            let length = Int(
                journal.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: position, as: UInt32.self).littleEndian })
            let bodyEnd = position + 4 + length
            guard length <= journalBound, bodyEnd + BLAKE2b.digestByteCount <= journal.count else { break }
            let expected = try? cryptoCall { () throws(VaultCryptoError) in
                try BLAKE2b.mac(last + journal[position + 4 ..< bodyEnd], key: key)
            }
            let stored = Array(journal[bodyEnd ..< bodyEnd + BLAKE2b.digestByteCount])
            guard let expected, BLAKE2b.digestsMatch(expected, stored) else { break }
            bodies.append(position + 4 ..< bodyEnd)
            last = stored
            position = bodyEnd + BLAKE2b.digestByteCount
        }
        return (bodies, position, last)
    }

    /// The store with the journal's verified records applied, in one pass (identities looked up
    /// by id in a table built once).
    func applying(_ journal: [UInt8], tag: [UInt8], key: borrowing SecureBytes, filter: HostFilter?) -> IdentityStore {
        let verified = Self.verifiedRecords(journal, tag: tag, key: key)
        guard !verified.bodies.isEmpty else { return self }
        var result = self
        var slots: [Identity?] = identities
        var positions: [UUID: Int] = [:]
        for (index, identity) in identities.enumerated() { positions[identity.id] = index }
        var keys = sshKeys
        var items = keyringItems
        for range in verified.bodies {
            // A record that verifies but does not parse was written by another format: the store
            // stops there, older than the vault, and the next save writes it whole.
            guard let change = try? journal[range].withUnsafeBytes({ try Change.decode($0, filter: filter) }) else {
                break
            }
            for entry in change.entries {
                if let position = positions[entry.id] {
                    slots[position] = entry.identity
                    if entry.identity == nil { positions[entry.id] = nil }
                } else if let identity = entry.identity {
                    positions[entry.id] = slots.count
                    slots.append(identity)
                }
                keys.removeAll { $0.id == entry.id }
                if let sshKey = entry.sshKey { keys.append(sshKey) }
                items.removeAll { $0.id == entry.id }
                if let item = entry.keyringItem { items.append(item) }
            }
            if let equivalents = change.equivalents { result.equivalents = equivalents }
            result.version = change.version
        }
        result.identities = slots.compactMap { $0 }
        // In the identities' order, as a rebuild lists them.
        var order: [UUID: Int] = [:]
        for (index, identity) in result.identities.enumerated() { order[identity.id] = index }
        result.sshKeys = keys.sorted { (order[$0.id] ?? .max) < (order[$1.id] ?? .max) }
        result.keyringItems = items.sorted { (order[$0.id] ?? .max) < (order[$1.id] ?? .max) }
        return result
    }

    /// Appends `change` to the journal of the store at `path`, when the store and its journal
    /// mirror `previous` of the vault `vaultID` and the journal has room: for the cost of the
    /// change. False, with nothing written, otherwise: the caller writes the store whole.
    public static func append(_ change: Change, after previous: VaultVersion, vaultID: [UInt8], to path: String) throws
        -> Bool
    {
        try AtomicFile.whileLocked(beside: path) { _ in
            // What a killed whole write left, removed under the lock as the next whole write would.
            AtomicFile.removeStaleTemporaries(of: path)
            guard let key = try readKey(beside: path),
                let (version, tag) = try headerAndTag(of: path, vaultID: vaultID)
            else { return false }
            let journalPath = journalPath(of: path)
            let journal = try StoredFile.readIfPresent(journalPath, limit: journalBound + 1) ?? []
            let verified = verifiedRecords(journal, tag: tag, key: key)
            var head = version
            if let last = verified.bodies.last {
                guard let change = try? journal[last].withUnsafeBytes({ try Change.decode($0, filter: nil) }) else {
                    return false
                }
                head = change.version
            }
            let body = change.body
            guard head == previous, verified.end + 4 + body.count + BLAKE2b.digestByteCount <= journalBound else {
                return false
            }
            var record: [UInt8] = []
            withUnsafeBytes(of: UInt32(body.count).littleEndian) { record += $0 }
            record += body
            record += try cryptoCall { () throws(VaultCryptoError) in try BLAKE2b.mac(verified.tag + body, key: key) }
            let fd = try VaultError.during("opening", of: journalPath) {
                try FileDescriptor.open(
                    journalPath, [.writeOnly, .create, .nonBlocking, .noFollow], permissions: 0o600)
            }
            defer { fd.close() }
            // Not synced: a record a power cut loses leaves the store older than the vault, which
            // `suggest` says and the next save repairs; its tag keeps a torn one from being read.
            try VaultError.during("writing", of: journalPath) {
                // Whatever followed the verified records (a torn end, another store's) goes first.
                try fd.truncate(to: verified.end)
                try record.withUnsafeBytes { try fd.writeAll($0, at: verified.end) }
            }
            return true
        }
    }

    /// The version a store file says it mirrors and its tag (its last 32 bytes), read without
    /// the rest: nil when it is missing, of another format, or of another vault.
    private static func headerAndTag(of path: String, vaultID: [UInt8]) throws -> (VaultVersion, [UInt8])? {
        let opened: (FileDescriptor, FileStatus)?
        do { opened = try RegularFile.openIfPresent(path) } catch { return nil }
        guard let (fd, info) = opened else { return nil }
        defer { fd.close() }
        let headerCount = magic.count + 2 + vaultID.count + 16
        guard info.size > headerCount + BLAKE2b.digestByteCount,
            let header = try? fd.readBytes(count: headerCount, at: 0), header.count == headerCount,
            let tag = try? fd.readBytes(count: BLAKE2b.digestByteCount, at: info.size - BLAKE2b.digestByteCount),
            tag.count == BLAKE2b.digestByteCount,
            header.prefix(magic.count).elementsEqual(magic), header[magic.count] == format,
            Int(header[magic.count + 1]) == vaultID.count,
            header[(magic.count + 2) ..< (magic.count + 2 + vaultID.count)].elementsEqual(vaultID)
        else { return nil }
        let version = header.withUnsafeBytes { bytes in
            let start = magic.count + 2 + vaultID.count
            return VaultVersion(
                generation: UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: start, as: UInt64.self)),
                changes: UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: start + 8, as: UInt64.self)))
        }
        return (version, tag)
    }
}
