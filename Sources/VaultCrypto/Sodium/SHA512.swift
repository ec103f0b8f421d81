internal import CSodium

/// SHA-512 (libsodium's `crypto_hash_sha512`), written into the caller's memory: bcrypt-pbkdf
/// hashes a passphrase with it, so the digest is as secret as the passphrase and goes where the
/// caller keeps secrets (`SecureBytes`).
public enum SHA512 {
    public static let digestByteCount = 64

    /// SHA-512 of `data` into `digest` (exactly 64 bytes).
    public static func hash(_ data: UnsafeRawBufferPointer, into digest: UnsafeMutableRawBufferPointer)
        throws(VaultCryptoError)
    {
        try Sodium.ready()
        guard digest.count == digestByteCount else { throw .invalidInput("a SHA-512 digest is 64 bytes") }
        guard crypto_hash_sha512(digest.mutableBytes, data.bytes, UInt64(data.count)) == 0 else {
            throw .invalidInput("SHA-512 failed")
        }
    }
}
