import FoundationEssentials
import VaultCrypto

extension IdentityStore {
    /// A keyring item (issue 40) as the Secret Service may find it while the vault is locked:
    /// its id, and a digest of each of its attribute pairs — never a name or value. libsecret's
    /// clients (secret-tool, Chromium) search first and unlock only the items a search returns
    /// locked; a locked vault that listed nothing would never be asked to unlock, and Chromium,
    /// finding no key, would make a new one. gnome-keyring searches a locked keyring the same
    /// way, by hashed attributes.
    ///
    /// A digest is BLAKE2b over the vault's id and the pair (each part length-prefixed), cut to
    /// 16 bytes: a search hashes the pairs asked for and compares. The vault id keeps one vault's
    /// digests from matching another's; it is no key (it is in the store beside them), so an
    /// attribute value anyone could guess (a user name) can be confirmed from the store, as from
    /// gnome-keyring's file. Nothing secret is an attribute: the secret is in the vault.
    public struct LockedKeyringItem: Equatable, Sendable {
        public let id: UUID
        /// The digests of its attribute pairs, sorted.
        public let digests: [[UInt8]]

        public static let digestByteCount = 16

        init(id: UUID, digests: [[UInt8]]) {
            self.id = id
            self.digests = digests
        }

        /// Nil for anything but a keyring item.
        init?(_ credential: Credential, vaultID: [UInt8]) {
            guard credential.kind == .keyring else { return nil }
            let digests = KeyringItem.attributes(of: credential).compactMap {
                Self.digest($0.key, $0.value, vaultID: vaultID)
            }
            self.init(id: credential.id, digests: digests.sorted { $0.lexicographicallyPrecedes($1) })
        }

        /// Whether its attributes include every pair of `attributes` (all for none).
        public func matches(_ attributes: [String: String], vaultID: [UInt8]) -> Bool {
            let held = Set(digests)
            return attributes.allSatisfy { pair in
                Self.digest(pair.key, pair.value, vaultID: vaultID).map(held.contains) ?? false
            }
        }

        static func digest(_ name: String, _ value: String, vaultID: [UInt8]) -> [UInt8]? {
            var input = vaultID
            for part in [Array(name.utf8), Array(value.utf8)] {
                withUnsafeBytes(of: UInt32(part.count).littleEndian) { input += $0 }
                input += part
            }
            return (try? BLAKE2b.hash(input)).map { Array($0.prefix(digestByteCount)) }
        }
    }
}

extension IdentityStoreWriter {
    mutating func lockedKeyringItem(_ item: IdentityStore.LockedKeyringItem) {
        uuid(item.id)
        integer(UInt32(item.digests.count))
        for digest in item.digests { bytes += digest }
    }
}

extension IdentityStoreReader {
    mutating func lockedKeyringItem() throws -> IdentityStore.LockedKeyringItem {
        let id = try cursor.uuid()
        let digests = try (0 ..< (try count())).map { _ in
            Array(try cursor.take(IdentityStore.LockedKeyringItem.digestByteCount))
        }
        return IdentityStore.LockedKeyringItem(id: id, digests: digests)
    }
}
