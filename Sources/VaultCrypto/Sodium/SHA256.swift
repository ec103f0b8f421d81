internal import CSodium

/// SHA-256 (FIPS 180-4) of public data, by libsodium: an SSH key's fingerprint, as `ssh-keygen -l`
/// prints it, is the SHA-256 of the key's blob.
public enum SHA256 {
    public static let byteCount = 32

    public static func hash(_ message: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: byteCount)
        // Initialised or not, libsodium's SHA-256 is its portable code: the answer is the same.
        try? Sodium.ready()
        message.withUnsafeBufferPointer { message in
            digest.withUnsafeMutableBufferPointer { out in
                _ = crypto_hash_sha256(out.mutableBytes, message.bytes, UInt64(message.count))
            }
        }
        return digest
    }
}
