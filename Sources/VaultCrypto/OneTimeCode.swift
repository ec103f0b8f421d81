/// One-time codes: HOTP (RFC 4226) and TOTP (RFC 6238), as authenticator apps make them.
///
/// HOTP: HMAC of the counter as 8 big-endian bytes; the last nibble of the digest picks an
/// offset, the 31 bits there are the number, and its last `digits` decimal digits the code.
/// TOTP: HOTP with the counter (now − T0) / period, T0 = 0. The code goes out as ASCII digits in
/// protected memory, like every other secret.
public enum OneTimeCode {
    public static let digitRange = 6 ... 8

    public static func hotp(
        key: UnsafeRawBufferPointer, counter: UInt64, digits: Int,
        algorithm: HMAC.Algorithm
    ) throws(VaultCryptoError) -> SecureBytes {
        guard digitRange.contains(digits) else { throw .invalidInput("a code has 6 to 8 digits, not \(digits)") }
        var counterBytes = counter.bigEndian
        var number = try narrowingErrors {
            try withUnsafeBytes(of: &counterBytes) { message in
                let digest = try HMAC.authenticate(message, key: key, using: algorithm)
                return digest.withUnsafeBytes { mac -> UInt32 in
                    let offset = Int(mac[mac.count - 1] & 0x0F)
                    return (UInt32(mac[offset]) & 0x7F) << 24 | UInt32(mac[offset + 1]) << 16
                        | UInt32(mac[offset + 2]) << 8 | UInt32(mac[offset + 3])
                }
            }
        }
        var modulus: UInt32 = 1
        for _ in 0 ..< digits { modulus *= 10 }
        number %= modulus
        var code = try SecureBytes(zeros: digits)
        code.withUnsafeMutableBytes { out in
            for position in stride(from: digits - 1, through: 0, by: -1) {
                out[position] = UInt8(ascii: "0") + UInt8(number % 10)
                number /= 10
            }
        }
        return code
    }

    /// A TOTP code and how many more seconds it is valid.
    public struct Timed: ~Copyable {
        public var code: SecureBytes
        public let secondsLeft: Int
    }

    /// The code valid at `secondsSince1970`.
    public static func totp(
        key: UnsafeRawBufferPointer, at secondsSince1970: Int64, period: Int, digits: Int,
        algorithm: HMAC.Algorithm
    ) throws(VaultCryptoError) -> Timed {
        guard period > 0 else { throw .invalidInput("a code's period must be at least one second") }
        guard secondsSince1970 >= 0 else { throw .invalidInput("the clock is before 1970") }
        let counter = UInt64(secondsSince1970) / UInt64(period)
        let left = period - Int(UInt64(secondsSince1970) % UInt64(period))
        return Timed(
            code: try hotp(key: key, counter: counter, digits: digits, algorithm: algorithm), secondsLeft: left)
    }
}
