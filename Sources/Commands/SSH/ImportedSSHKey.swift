import VaultCrypto

/// A key read from a file by `ssh import` (`SSHKeyFile`): its type, and the private key as
/// `SSHKeyItem` keeps it (an Ed25519 seed, or RSA's and ECDSA P-256's PKCS#8 DER), in protected memory.
struct ImportedSSHKey: ~Copyable {
    let type: SSHKeyType
    var key: SecureBytes
}
