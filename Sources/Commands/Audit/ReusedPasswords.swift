import FoundationEssentials
import VaultCrypto
import VaultModel

/// Which credentials share a password, found without comparing passwords: each secret's keyed
/// BLAKE2b digest (libsodium's generichash) under a random 32-byte key made for this audit and
/// held in protected memory. Equal digests are equal secrets; the digests are useless without
/// the key, which is zeroed when the audit ends, so nothing kept or sent could be checked
/// against a guessed password afterwards (an unkeyed hash could).
struct ReusedPasswords: ~Copyable {
    private let key: SecureBytes
    private var owners: [[UInt8]: [AuditReuse]] = [:]
    private var passwordDigests: [UUID: [UInt8]] = [:]

    init() throws {
        key = try SecureBytes.random(count: 32)
    }

    /// `secret` (a password, or a secret field's value when `owner.field` names it) seen at `owner`.
    mutating func add(_ secret: UnsafeRawBufferPointer, owner: AuditReuse) throws {
        let digest = try BLAKE2b.mac(secret, key: key)
        owners[digest, default: []].append(owner)
        if owner.field == nil { passwordDigests[owner.id] = digest }
    }

    /// Where else the password of credential `id` is kept; empty when nowhere.
    func others(sharingPasswordOf id: UUID) -> [AuditReuse] {
        guard let digest = passwordDigests[id], let all = owners[digest] else { return [] }
        return all.filter { !($0.id == id && $0.field == nil) }
    }
}
