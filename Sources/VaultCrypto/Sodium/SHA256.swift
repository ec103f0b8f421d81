internal import CSodium

/// SHA-256 (FIPS 180-4) of public bytes: an SSH key's fingerprint as OpenSSH prints it
/// (`ssh-keygen -l`), which the agent's approval shows so the user can tell the key asked for.
public enum SHA256 {
    public static let digestByteCount = 32

    public static func hash(_ data: [UInt8]) throws(VaultCryptoError) -> [UInt8] {
        try Sodium.ready()
        var digest = [UInt8](repeating: 0, count: digestByteCount)
        let status = digest.withUnsafeMutableBufferPointer { out in
            data.withUnsafeBufferPointer { input in
                crypto_hash_sha256(out.mutableBytes, input.bytes, UInt64(input.count))
            }
        }
        guard status == 0 else { throw .invalidInput("SHA-256 failed") }
        return digest
    }
}
