/// Turns a master password into a key-encryption key.
///
/// A protocol so that tests which open the same vault thousands of times (every byte flipped,
/// every truncation) can put a memoising derivation in front of the real one instead of paying
/// Argon2id's deliberate cost each time.
public protocol KeyDerivation: Sendable {
    /// The 32-byte key for `password` and `salt` at `parameters`.
    func deriveKey(
        password: borrowing SecureBytes, salt: [UInt8], parameters: KDFParameters
    ) throws(VaultCryptoError) -> SecureBytes
}
