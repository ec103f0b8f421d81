import VaultCrypto

/// A key read from a file by `ssh import` (`SSHKeyFile`): its type, and the private key as
/// `SSHKeyItem` keeps it (an Ed25519 seed, or RSA's and ECDSA P-256's PKCS#8 DER), in protected memory.
public struct ImportedSSHKey: ~Copyable {
    public let type: SSHKeyType
    public var key: SecureBytes

    /// The private key, the rest given up: a noncopyable value of another module is taken apart
    /// only through itself.
    public consuming func takeKey() -> SecureBytes { key }
}
