import FoundationEssentials
import Platform
import VaultCrypto
import ServiceMatching

/// The credential identity store (AutoFill's `ASCredentialIdentityStore`): what can be shown and
/// ranked without unlocking — per credential its id, title, username, services and rank; never a
/// secret, never notes. It lives in `$XDG_STATE_HOME/pwtui/identities/` (one file per vault), is never synced, and is
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
/// 10,000 identities cost 80 ms): "PWIS", u8 format 7, u8 id length, the vault id, u64
/// generation, u64 journal records after the snapshot (`VaultVersion`); u32 group count, each a u32 count of strings; u32 identity count, each 16 id
/// bytes, title, username, i32 rank, u8 1 and the one-time code's u8 algorithm, u8 digits and
/// u32 period when it has an authenticator key (else u8 0), u8 item kind, u32 count of services,
/// each its text and its normalised host; u32 SSH key count, each 16 id bytes, title, public key
/// blob, u32 count of hosts; u32 keyring item count, each 16 id bytes, u32 count of attribute
/// digests, each 16 bytes (`LockedKeyringItem`); then a 32-byte keyed BLAKE2b of everything before it. A string is a u32 length and
/// UTF-8. The hosts let `suggest` skip, unparsed, every identity a `HostFilter` rules out.
///
/// The store is a cache, and nothing in it is trusted: `suggest` would otherwise rank, and show,
/// whatever a flipped byte or another program put there (a changed byte once made `suggest` exit
/// 64 "invalid service", blaming the user for text they never typed). The MAC's key is 32 random
/// bytes in a 0600 file beside the store (`identities.key`), made on the first write and never
/// synced: a store that is damaged, truncated, tampered with or written under another key fails
/// the MAC before anything in it is parsed, and counts as missing — rebuilt at the next unlock.
/// Both files are written with `AtomicFile` (fsync, rename, directory fsync; a killed writer's
/// temporaries are removed by the next one).
public struct IdentityStore: Equatable, Sendable {
    public struct Identity: Equatable, Sendable {
        public let id: UUID
        public let title: String
        public let username: String
        public let services: [String]
        /// The services' hosts as ranking compares them (lowercased, IDN in `xn--` form).
        public let hosts: [String]
        public let rank: Int32
        /// How its one-time codes are made, when it has an authenticator key (the key itself stays
        /// in the vault): what the picker marks, and what `totp` counts the seconds with.
        public let oneTime: OneTimeParameters?
        /// A login, note, card or identity: what the picker marks.
        public let kind: ItemKind

        public init(_ credential: Credential) {
            id = credential.id
            title = credential.title
            username = credential.username
            services = credential.services.map(\.text)
            hosts = credential.services.map(\.host)
            rank = credential.rank
            oneTime = credential.totp?.parameters
            kind = credential.kind
        }

        /// `hosts`: nil to parse them from `services`.
        public init(
            id: UUID, title: String, username: String, services: [String], hosts: [String]? = nil, rank: Int32,
            oneTime: OneTimeParameters? = nil, kind: ItemKind = .login
        ) {
            self.kind = kind
            self.id = id
            self.title = title
            self.username = username
            self.services = services
            self.hosts = hosts ?? services.map { (try? ServiceIdentifier(stored: $0))?.host ?? "" }
            self.rank = rank
            self.oneTime = oneTime
        }

        /// The title, or the first service when no title was given (as `Credential.displayTitle`).
        public var displayTitle: String { title.isEmpty ? (services.first ?? "") : title }

        /// The identity as a credential without a secret, for ranking: its secret reference
        /// points at nothing, and nothing that ranks or lists reads secrets.
        public func secretlessCredential() throws -> Credential {
            Credential(
                id: id, title: title, services: try services.map { try ServiceIdentifier(stored: $0) },
                username: username,
                secret: SecretReference(offset: 0, count: 0), rank: rank,
                created: Timestamp(millisecondsSince1970: 0), modified: Timestamp(millisecondsSince1970: 0),
                totp: oneTime.map { OneTimeKey(parameters: $0, key: SecretReference(offset: 0, count: 0)) }, kind: kind)
        }
    }

    public private(set) var vaultID: [UInt8]
    /// The version of the vault it mirrors.
    public internal(set) var version: VaultVersion
    public internal(set) var identities: [Identity]
    public internal(set) var equivalents: EquivalentDomains
    /// The SSH keys' public halves, for the agent to list while locked (`SSHPublicKey`).
    public internal(set) var sshKeys: [SSHPublicKey]
    /// The keyring items' attribute digests, for the Secret Service to search while locked
    /// (`LockedKeyringItem`).
    public internal(set) var keyringItems: [LockedKeyringItem]
    /// False when loaded with a filter: only some identities are here.
    public private(set) var isComplete = true

    /// A full rebuild from an unlocked vault.
    public init(vault: Vault) {
        vaultID = vault.header.vaultID
        version = vault.version
        identities = vault.contents.credentials.map(Identity.init)
        equivalents = vault.contents.equivalents
        sshKeys = vault.contents.credentials.compactMap(SSHPublicKey.init)
        let vaultID = vault.header.vaultID
        keyringItems = vault.contents.credentials.compactMap { LockedKeyringItem($0, vaultID: vaultID) }
    }

    /// An SSH key item's public half: what the agent lists while locked (`ssh-add -L`), and the
    /// hosts it is bound to. The blob is read from the item's `public key` field (the
    /// `authorized_keys` line), the one place it is kept outside the secret. Keys bound to
    /// programs (`--allow-program`) are left out: whether the requester may see them is decided
    /// with the vault open, so they are listed only while it is.
    public struct SSHPublicKey: Equatable, Sendable {
        public let id: UUID
        public let title: String
        public let keyBlob: [UInt8]
        public let hosts: [String]

        public init(id: UUID, title: String, keyBlob: [UInt8], hosts: [String]) {
            self.id = id
            self.title = title
            self.keyBlob = keyBlob
            self.hosts = hosts
        }

        /// Nil for anything but an SSH key with a readable public key and no program binding.
        init?(_ credential: Credential) {
            guard credential.kind == .sshKey, credential.allowedPrograms.isEmpty,
                let line = credential.field(named: SSHKeyItem.publicKeyField)?.text
            else { return nil }
            let words = line.split(separator: " ")
            guard words.count >= 2, let blob = Data(base64Encoded: String(words[1])), !blob.isEmpty else { return nil }
            self.init(
                id: credential.id, title: credential.displayTitle, keyBlob: Array(blob),
                hosts: SSHKeyItem.hosts(of: credential))
        }
    }

    /// Whether the store mirrors the vault file with this header, at `version`.
    public func isCurrent(for header: VaultHeader, at version: VaultVersion) -> Bool {
        header.vaultID == vaultID && version == self.version
    }

    // MARK: File

    static let magic = Array("PWIS".utf8)
    /// 5: each identity's item kind (a note, a card, an identity) after its one-time parameters.
    /// 6: the SSH keys' public halves after the identities. 7: the journal records after the
    /// generation. 8: the keyring items' attribute digests after the SSH keys.
    static let format: UInt8 = 8
    private static let keyByteCount = 32

    /// Why a store on disk is not used: it is rebuilt at the next unlock.
    public struct Damage: Error, CustomStringConvertible {
        public let path: String
        public let reason: String
        public var description: String { "the identity store \(path) is not usable (\(reason))" }
    }

    /// The store at `path`, or nil when there is none or it is damaged. `filter`: only the
    /// identities with a host it lets through are built (for ranking them right away); such a
    /// partial store cannot be saved.
    public static func load(from path: String, filter: ((EquivalentDomains) -> HostFilter)? = nil) -> IdentityStore? {
        try? read(from: path, filter: filter)
    }

    /// The store at `path`; nil when there is none; `Damage` when it is there but not intact
    /// (fails its MAC, has no key, does not parse, is not a regular file).
    public static func read(from path: String, filter: ((EquivalentDomains) -> HostFilter)? = nil) throws(Damage)
        -> IdentityStore?
    {
        func damage(_ reason: String) -> Damage { Damage(path: path, reason: reason) }
        let file: [UInt8]
        do {
            guard let bytes = try StoredFile.readIfPresent(path) else { return nil }
            file = bytes
        } catch {
            throw damage("\(error)")
        }
        guard file.count > BLAKE2b.digestByteCount else { throw damage("too short") }
        let body = Array(file.dropLast(BLAKE2b.digestByteCount))
        let tag = Array(file.suffix(BLAKE2b.digestByteCount))
        let key = try authenticated(body, tag: tag, path: path)
        let store: IdentityStore
        do {
            store = try body.withUnsafeBytes { try decode($0, filter: filter) }
        } catch {
            // Authentic but unreadable: written by another format of this store.
            throw damage("it is in a format this pwtui does not read")
        }
        // The changes saved since the store was written whole (`IdentityStore.Change`). A filter
        // is made from the store's equivalents, as the decode's was: a record that changes them
        // only affects which identities a partial store (a ranking's) built.
        do {
            guard let journal = try StoredFile.readIfPresent(journalPath(of: path), limit: journalBound + 1) else {
                return store
            }
            return store.applying(journal, tag: tag, key: key, filter: filter?(store.equivalents))
        } catch {
            return store  // an unreadable journal leaves the store older than the vault: rebuilt
        }
    }

    /// The store's key, once `body` is shown to be what it wrote (its MAC is `tag`).
    private static func authenticated(_ body: [UInt8], tag: [UInt8], path: String) throws(Damage) -> SecureBytes {
        func damage(_ reason: String) -> Damage { Damage(path: path, reason: reason) }
        let found: SecureBytes?
        do { found = try readKey(beside: path) } catch { throw damage("\(error)") }
        guard let key = found else { throw damage("its key file is missing") }
        let expected: [UInt8]
        do {
            expected = try cryptoCall { () throws(VaultCryptoError) in try BLAKE2b.mac(body, key: key) }
        } catch {
            throw damage("\(error)")
        }
        guard BLAKE2b.digestsMatch(expected, tag) else { throw damage("it fails its integrity check") }
        return key
    }

    package static func decode(_ bytes: UnsafeRawBufferPointer, filter makeFilter: ((EquivalentDomains) -> HostFilter)?)
        throws -> IdentityStore
    {
        var reader = IdentityStoreReader(bytes)
        guard try reader.cursor.take(4).elementsEqual(magic), try reader.cursor.u8() == format else {
            throw IdentityStoreReader.Malformed()
        }
        let vaultID = Array(try reader.cursor.take(Int(try reader.cursor.u8())))
        let version = VaultVersion(generation: try reader.cursor.u64(), changes: try reader.cursor.u64())
        let equivalents = EquivalentDomains(groups: try reader.groups())
        let filter = makeFilter?(equivalents)
        var identities: [Identity] = []
        for _ in 0 ..< (try reader.count()) {
            if let identity = try reader.identity(filter: filter) { identities.append(identity) }
        }
        let sshKeys = try (0 ..< (try reader.count())).map { _ in try reader.sshKey() }
        let keyringItems = try (0 ..< (try reader.count())).map { _ in try reader.lockedKeyringItem() }
        guard reader.cursor.isAtEnd else { throw IdentityStoreReader.Malformed() }
        return IdentityStore(
            vaultID: vaultID, version: version, identities: identities,
            equivalents: equivalents, sshKeys: sshKeys, keyringItems: keyringItems, isComplete: filter == nil)
    }

    private init(
        vaultID: [UInt8], version: VaultVersion, identities: [Identity], equivalents: EquivalentDomains,
        sshKeys: [SSHPublicKey], keyringItems: [LockedKeyringItem], isComplete: Bool
    ) {
        self.vaultID = vaultID
        self.version = version
        self.identities = identities
        self.equivalents = equivalents
        self.sshKeys = sshKeys
        self.keyringItems = keyringItems
        self.isComplete = isComplete
    }

    public func save(to path: String) throws {
        guard isComplete else { throw VaultError.invalidRequest("a filtered identity store cannot be saved") }
        var writer = IdentityStoreWriter(bytes: Self.magic + [Self.format, UInt8(vaultID.count)] + vaultID)
        writer.integer(version.generation)
        writer.integer(version.changes)
        writer.groups(equivalents.groups)
        writer.integer(UInt32(identities.count))
        for identity in identities { writer.identity(identity) }
        writer.integer(UInt32(sshKeys.count))
        for sshKey in sshKeys { writer.sshKey(sshKey) }
        writer.integer(UInt32(keyringItems.count))
        for item in keyringItems { writer.lockedKeyringItem(item) }
        var bytes = writer.bytes
        let key = try Self.readKey(beside: path) ?? Self.makeKey(beside: path)
        bytes += try cryptoCall { () throws(VaultCryptoError) in try BLAKE2b.mac(bytes, key: key) }
        try AtomicFile.write(Data(bytes), to: path, replacing: Self.journalPath(of: path))
    }

    /// Removes the store and its key: no such file exists at all then.
    public static func remove(at path: String) {
        try? FileSystem.removeIfPresent(path)
        try? FileSystem.removeIfPresent(keyPath(beside: path))
    }

    /// Removes every vault's store and key (the setting is off, and it is not per vault).
    public static func removeAll(in directory: String) {
        try? FileSystem.removeTree(directory)
    }

    static func keyPath(beside path: String) -> String { path + ".key" }

    /// The MAC key; nil when there is no key file or it is not one (then a new key replaces it,
    /// and every store written under the old one stops verifying: rebuilt, as it should be).
    static func readKey(beside path: String) throws -> SecureBytes? {
        guard var bytes = try? StoredFile.readIfPresent(keyPath(beside: path), prefix: keyByteCount + 1),
            bytes.count == keyByteCount
        else { return nil }
        defer { for i in bytes.indices { bytes[i] = 0 } }
        return try cryptoCall { () throws(VaultCryptoError) in try SecureBytes(copying: bytes) }
    }

    /// A new random key, written with the care of the store itself, then read back: when two
    /// writers make one at once, the second keeps the first one's, and both use it.
    private static func makeKey(beside path: String) throws -> SecureBytes {
        var bytes = try cryptoCall { () throws(VaultCryptoError) in try RandomBytes.make(keyByteCount) }
        defer { for i in bytes.indices { bytes[i] = 0 } }
        try AtomicFile.write(Data(bytes), to: keyPath(beside: path)) { $0.count == keyByteCount }
        guard let key = try readKey(beside: path) else {
            throw VaultError.io(
                path: keyPath(beside: path), operation: "reading back", errno: SystemError.inputOutput.code)
        }
        return key
    }
}

extension IdentityStoreWriter {
    mutating func identity(_ identity: IdentityStore.Identity) {
        uuid(identity.id)
        text(identity.title)
        text(identity.username)
        integer(UInt32(bitPattern: identity.rank))
        if let oneTime = identity.oneTime {
            bytes += [1, oneTime.algorithm.rawValue, UInt8(oneTime.digits)]
            integer(UInt32(oneTime.period))
        } else {
            bytes.append(0)
        }
        bytes.append(identity.kind.rawValue)
        integer(UInt32(identity.services.count))
        for (service, host) in zip(identity.services, identity.hosts) {
            text(service)
            text(host)
        }
    }

    mutating func sshKey(_ key: IdentityStore.SSHPublicKey) {
        uuid(key.id)
        text(key.title)
        integer(UInt32(key.keyBlob.count))
        bytes += key.keyBlob
        texts(key.hosts)
    }
}

extension IdentityStoreReader {
    /// The next identity; nil when none of its hosts passes `filter` (it is skipped unparsed).
    mutating func identity(filter: HostFilter?) throws -> IdentityStore.Identity? {
        let id = try cursor.uuid()
        let title = try raw()
        let username = try raw()
        let rank = Int32(bitPattern: try cursor.u32())
        var oneTime: OneTimeParameters?
        if try cursor.u8() == 1 {
            guard let algorithm = HMAC.Algorithm(rawValue: try cursor.u8()) else { throw Malformed() }
            oneTime = OneTimeParameters(
                algorithm: algorithm, digits: Int(try cursor.u8()), period: Int(try cursor.u32()))
            guard oneTime?.isValid == true else { throw Malformed() }
        }
        guard let kind = ItemKind(rawValue: try cursor.u8()) else { throw Malformed() }
        services.removeAll(keepingCapacity: true)
        for _ in 0 ..< (try count()) { services.append((try raw(), try raw())) }
        if let filter, !services.contains(where: { filter.mayMatch(host: $0.host) }) { return nil }
        return IdentityStore.Identity(
            id: id, title: try text(title), username: try text(username),
            services: try services.map { try text($0.text) },
            hosts: try services.map { try text($0.host) }, rank: rank, oneTime: oneTime, kind: kind)
    }

    mutating func sshKey() throws -> IdentityStore.SSHPublicKey {
        let id = try cursor.uuid()
        let title = try text()
        let blob = Array(try raw())
        return IdentityStore.SSHPublicKey(id: id, title: title, keyBlob: blob, hosts: try texts())
    }
}

extension IdentityStore.Damage: ExitStatusReporting {
    /// A damaged store is rebuilt at the next unlock; when it does end a command, as a damaged file.
    public var exitStatus: ExitStatus { .corrupt }
}
