import VaultCrypto

/// A secret as it goes to a session: the IV and ciphertext of a DH session, or for a plain one no
/// parameters and the secret itself (in protected memory until it is appended to the reply).
struct SealedSecret: ~Copyable {
    let parameters: [UInt8]
    let value: SecureBytes
    let contentType: String
}
