internal import CSodium

/// Public randomness (salts, nonces, identifiers): not secret, so plain arrays.
public enum RandomBytes {
    public static func make(_ count: Int) throws(VaultCryptoError) -> [UInt8] {
        try Sodium.ready()
        var bytes = [UInt8](repeating: 0, count: count)
        bytes.withUnsafeMutableBytes { buffer in
            if let base = buffer.baseAddress { randombytes_buf(base, buffer.count) }
        }
        return bytes
    }

    /// A uniformly distributed integer in 0..<upperBound, without modulo bias.
    public static func uniform(_ upperBound: UInt32) throws(VaultCryptoError) -> UInt32 {
        try Sodium.ready()
        return randombytes_uniform(upperBound)
    }
}
