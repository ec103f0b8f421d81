internal import CSodium

/// Ed25519 signatures (RFC 8032), libsodium's `crypto_sign`: what an SSH key of type
/// `ssh-ed25519` signs with. The private key is kept as its 32-byte seed, in protected memory;
/// libsodium's 64-byte secret key (seed and public key) is made from it for each signature, in
/// protected memory too, and zeroed as soon as the signature is made. Public keys and signatures
/// are not secret: they come back as ordinary arrays.
public enum Ed25519 {
    public static let seedByteCount = 32
    public static let publicKeyByteCount = 32
    public static let signatureByteCount = 64

    /// A new key's seed, from the operating system's CSPRNG.
    public static func newSeed() throws(VaultCryptoError) -> SecureBytes {
        try SecureBytes.random(count: seedByteCount)
    }

    /// The public key of the key whose seed is `seed`.
    public static func publicKey(seed: borrowing SecureBytes) throws(VaultCryptoError) -> [UInt8] {
        var publicKey = [UInt8](repeating: 0, count: publicKeyByteCount)
        _ = try withSecretKey(seed) { (_: UnsafeRawBufferPointer, pk: [UInt8]) in publicKey = pk }
        return publicKey
    }

    /// The detached signature of `message` by the key whose seed is `seed`.
    public static func sign(_ message: UnsafeRawBufferPointer, seed: borrowing SecureBytes) throws(VaultCryptoError)
        -> [UInt8]
    {
        var signature = [UInt8](repeating: 0, count: signatureByteCount)
        var status: Int32 = -1
        try withSecretKey(seed) { (secretKey: UnsafeRawBufferPointer, _: [UInt8]) in
            status = signature.withUnsafeMutableBufferPointer { out in
                crypto_sign_detached(out.mutableBytes, nil, message.bytes, UInt64(message.count), secretKey.bytes)
            }
        }
        guard status == 0 else { throw .invalidInput("Ed25519 signing failed") }
        return signature
    }

    /// Whether `signature` is `publicKey`'s signature of `message` (for tests and checks; the
    /// agent only signs).
    public static func verify(
        _ signature: [UInt8], of message: UnsafeRawBufferPointer, publicKey: [UInt8]
    ) throws(VaultCryptoError) -> Bool {
        try Sodium.ready()
        guard signature.count == signatureByteCount, publicKey.count == publicKeyByteCount else { return false }
        return signature.withUnsafeBufferPointer { sig in
            publicKey.withUnsafeBufferPointer { pk in
                crypto_sign_verify_detached(sig.bytes, message.bytes, UInt64(message.count), pk.bytes) == 0
            }
        }
    }

    /// libsodium's secret key and the public key made from `seed`, for the time of `body`; the
    /// secret key is in protected memory, freed (zeroed) when `body` returns.
    private static func withSecretKey(
        _ seed: borrowing SecureBytes, _ body: (UnsafeRawBufferPointer, [UInt8]) -> Void
    ) throws(VaultCryptoError) {
        try Sodium.ready()
        guard seed.count == seedByteCount else {
            throw .invalidInput("an Ed25519 seed is \(seedByteCount) bytes, not \(seed.count)")
        }
        var secretKey = try SecureBytes(zeros: Int(crypto_sign_secretkeybytes()))
        var publicKey = [UInt8](repeating: 0, count: publicKeyByteCount)
        let status = seed.withUnsafeBytes { seedBytes in
            secretKey.withUnsafeMutableBytes { sk in
                publicKey.withUnsafeMutableBufferPointer { pk in
                    crypto_sign_seed_keypair(pk.mutableBytes, sk.mutableBytes, seedBytes.bytes)
                }
            }
        }
        guard status == 0 else { throw .invalidInput("Ed25519 key generation failed") }
        secretKey.withUnsafeBytes { body($0, publicKey) }
    }
}
