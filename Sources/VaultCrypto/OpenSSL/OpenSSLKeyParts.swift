internal import COpenSSL

/// RSA and P-256 keys to and from the numbers OpenSSH's own private key format stores
/// (PROTOCOL.key; `ssh import`, `ssh export --private`): pwtui keeps such a key as PKCS#8 DER,
/// OpenSSH as its parts. Every part is secret and stays in protected memory on both sides.
public enum OpenSSLKeyParts {
    private static let capacity = 8 * 1024

    /// A key's numbers as OpenSSH stores them: big-endian magnitudes one after the other in
    /// `numbers`, their lengths in `lengths`.
    public struct Parts: ~Copyable {
        public var numbers: SecureBytes
        public let lengths: [Int]
    }

    /// The PKCS#8 DER of the RSA key whose parts, big-endian magnitudes in OpenSSH's order (n, e,
    /// d, iqmp, p, q), lie one after the other in `parts` with `lengths`. OpenSSL's pairwise check
    /// must pass (the private half belongs to the public one), else `invalidInput`.
    public static func rsa(parts: UnsafeRawBufferPointer, lengths: [Int]) throws(VaultCryptoError) -> SecureBytes {
        guard lengths.count == 6, lengths.allSatisfy({ $0 >= 0 }), lengths.reduce(0, +) == parts.count else {
            throw .invalidInput("an RSA key has six numbers")
        }
        let sizes = lengths.map { UInt($0) }
        return try made { out in
            sizes.withUnsafeBufferPointer { sizes in
                pwtui_ssl_rsa_from_parts(parts.bytes, sizes.baseAddress, out.mutableBytes, out.count)
            }
        }
    }

    /// The PKCS#8 DER of the P-256 key with private scalar `scalar` and public point `point`
    /// (uncompressed, 65 bytes); `invalidInput` when they do not belong together.
    public static func p256(scalar: UnsafeRawBufferPointer, point: UnsafeRawBufferPointer) throws(VaultCryptoError)
        -> SecureBytes
    {
        try made { out in
            pwtui_ssl_p256_from_parts(scalar.bytes, scalar.count, point.bytes, point.count, out.mutableBytes, out.count)
        }
    }

    /// The parts OpenSSH stores of the key `der` (PKCS#8): six numbers for RSA (n, e, d, iqmp, p,
    /// q), one for P-256 (d), as big-endian magnitudes in one protected buffer, and their lengths.
    public static func parts(of der: borrowing SecureBytes) throws(VaultCryptoError) -> Parts {
        var numbers = try SecureBytes(zeros: capacity)
        var lengths = [UInt](repeating: 0, count: 6)
        let count = der.withUnsafeBytes { key in
            numbers.withUnsafeMutableBytes { out in
                lengths.withUnsafeMutableBufferPointer { lengths in
                    pwtui_ssl_private_parts(key.bytes, key.count, out.mutableBytes, out.count, lengths.baseAddress)
                }
            }
        }
        guard count > 0 else { throw .invalidInput("not an RSA or P-256 private key (PKCS#8 DER)") }
        let used = lengths.prefix(Int(count)).map { Int($0) }
        numbers.removeLast(capacity - used.reduce(0, +))
        return Parts(numbers: numbers, lengths: used)
    }

    private static func made(_ make: (UnsafeMutableRawBufferPointer) -> Int) throws(VaultCryptoError) -> SecureBytes {
        var der = try SecureBytes(zeros: capacity)
        let length = der.withUnsafeMutableBytes { make($0) }
        guard length > 0, length <= capacity else {
            throw .invalidInput("the key's numbers do not make a valid key (OpenSSL's check failed)")
        }
        der.removeLast(capacity - length)
        return der
    }
}
