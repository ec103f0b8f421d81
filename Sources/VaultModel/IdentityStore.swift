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
/// Format: JSON lines. The first line `{"format":1,"vault":"<hex>","generation":N}`, then one
/// object per identity.
public struct IdentityStore: Equatable, Sendable {
    public struct Identity: Equatable, Sendable {
        public let id: UUID
        public let title: String
        public let username: String
        public let services: [String]
        public let rank: Int32

        public init(_ credential: Credential) {
            id = credential.id
            title = credential.title
            username = credential.username
            services = credential.services.map(\.text)
            rank = credential.rank
        }

        public init(id: UUID, title: String, username: String, services: [String], rank: Int32) {
            self.id = id
            self.title = title
            self.username = username
            self.services = services
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

    /// A full rebuild from an unlocked vault.
    public init(vault: Vault) {
        vaultID = vault.header.vaultID
        generation = vault.header.generation
        identities = vault.contents.credentials.map(Identity.init)
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
        guard vaultID == vault.header.vaultID, generation == previousGeneration else {
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
        return changed
    }

    // MARK: File

    public static func load(from path: String) -> IdentityStore? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        let lines = data.split(separator: UInt8(ascii: "\n"))
        guard let first = lines.first,
              let header = try? JSONSerialization.jsonObject(with: Data(first)) as? [String: Any],
              header["format"] as? Int == 1, let vault = header["vault"] as? String,
              let generation = (header["generation"] as? NSNumber)?.uint64Value else { return nil }
        var identities: [Identity] = []
        for line in lines.dropFirst() {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any],
                  let id = (object["id"] as? String).flatMap(UUID.init(uuidString:)),
                  let title = object["title"] as? String, let username = object["username"] as? String,
                  let services = object["services"] as? [String], let rank = object["rank"] as? Int else { return nil }
            identities.append(Identity(id: id, title: title, username: username, services: services, rank: Int32(clamping: rank)))
        }
        return IdentityStore(vaultID: hexBytes(vault), generation: generation, identities: identities)
    }

    private init(vaultID: [UInt8], generation: UInt64, identities: [Identity]) {
        self.vaultID = vaultID
        self.generation = generation
        self.identities = identities
    }

    public func save(to path: String) throws {
        var lines: [Data] = []
        let header: [String: Any] = ["format": 1, "vault": vaultID.map { String(format: "%02x", $0) }.joined(), "generation": generation]
        lines.append(try JSONSerialization.data(withJSONObject: header, options: [.sortedKeys]))
        for identity in identities {
            let object: [String: Any] = ["id": identity.id.uuidString.lowercased(), "title": identity.title,
                                         "username": identity.username, "services": identity.services, "rank": Int(identity.rank)]
            lines.append(try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]))
        }
        var data = Data()
        for line in lines {
            data.append(line)
            data.append(UInt8(ascii: "\n"))
        }
        try AtomicFile.write(data, to: path)
    }

    /// Removes the store (the setting is off): no such file exists at all then.
    public static func remove(at path: String) {
        try? FileManager.default.removeItem(atPath: path)
    }

    private static func hexBytes(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        var index = text.startIndex
        while let next = text.index(index, offsetBy: 2, limitedBy: text.endIndex), index < text.endIndex {
            guard let byte = UInt8(text[index ..< next], radix: 16) else { return [] }
            bytes.append(byte)
            index = next
        }
        return bytes
    }
}
