internal import CSodium

/// HMAC with SHA-1, SHA-256 or SHA-512 (RFC 2104): what one-time codes are made with (RFC 4226,
/// RFC 6238). libsodium has the last two; SHA-1, which most sites' codes still use, is
/// `SHA1.swift`. The digest goes into protected memory: it is derived from the code's key.
public enum HMAC {
    public enum Algorithm: UInt8, Sendable, CaseIterable, Codable {
        case sha1 = 1, sha256 = 2, sha512 = 3

        public var digestByteCount: Int {
            switch self {
            case .sha1: return 20
            case .sha256: return 32
            case .sha512: return 64
            }
        }
    }

    public static func authenticate(
        _ message: UnsafeRawBufferPointer, key: UnsafeRawBufferPointer,
        using algorithm: Algorithm
    ) throws(VaultCryptoError) -> SecureBytes {
        try Sodium.ready()
        var digest = try SecureBytes(zeros: algorithm.digestByteCount)
        switch algorithm {
        case .sha1:
            digest.withUnsafeMutableBytes { out in SHA1.hmac(message, key: key, into: out) }
        case .sha256:
            var state = crypto_auth_hmacsha256_state()
            let status = digest.withUnsafeMutableBytes { out in
                crypto_auth_hmacsha256_init(&state, key.bytes, key.count) == 0
                    && crypto_auth_hmacsha256_update(&state, message.bytes, UInt64(message.count)) == 0
                    && crypto_auth_hmacsha256_final(&state, out.mutableBytes) == 0
            }
            sodium_memzero(&state, MemoryLayout<crypto_auth_hmacsha256_state>.size)
            guard status else { throw .invalidInput("HMAC-SHA-256 failed") }
        case .sha512:
            var state = crypto_auth_hmacsha512_state()
            let status = digest.withUnsafeMutableBytes { out in
                crypto_auth_hmacsha512_init(&state, key.bytes, key.count) == 0
                    && crypto_auth_hmacsha512_update(&state, message.bytes, UInt64(message.count)) == 0
                    && crypto_auth_hmacsha512_final(&state, out.mutableBytes) == 0
            }
            sodium_memzero(&state, MemoryLayout<crypto_auth_hmacsha512_state>.size)
            guard status else { throw .invalidInput("HMAC-SHA-512 failed") }
        }
        return digest
    }
}
