import FoundationEssentials
import Platform
import VaultCrypto
import VaultModel

/// The vault's SSH keys with their text fields (public key, hosts, policy), read through the
/// agent in one round trip or from the vault opened here: what `ssh list` and `ssh export`
/// print. No secret is read: these are text fields.
struct SSHKeyListing {
    struct Entry {
        let identity: IdentityStore.Identity
        let publicKey: String
        let hosts: [String]
        let confirm: SSHKeyItem.ConfirmPolicy
    }

    static func entries(of identities: [IdentityStore.Identity], through access: VaultAccess) throws -> [Entry] {
        let fields = [SSHKeyItem.publicKeyField, SSHKeyItem.hostsField, SSHKeyItem.confirmField]
        var values = try SecureBytes(capacity: 256)
        let ranges = try access.append(
            identities.flatMap { identity in fields.map { (field: CredentialField.named($0), id: identity.id) } },
            to: &values)
        let texts = values.withUnsafeBytes { bytes in ranges.map { String(decoding: bytes[$0], as: UTF8.self) } }
        return identities.enumerated().map { index, identity in
            let base = index * fields.count
            return Entry(
                identity: identity, publicKey: texts[base],
                hosts: texts[base + 1].split(separator: " ").map(String.init),
                confirm: SSHKeyItem.ConfirmPolicy(rawValue: texts[base + 2]) ?? .session)
        }
    }
}
