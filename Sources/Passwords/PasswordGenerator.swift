import VaultCrypto

/// Safari-style strong passwords: three groups of six characters joined by hyphens
/// (`hVcmbz-8tepqi-Kxgrno`), at least one upper-case letter and one digit, and none of the
/// characters that are easy to misread (0/O, 1/l/I). About 100 bits of entropy, and easy to type
/// on a phone when it must be.
///
/// This form meets the common rules (length 8–64, upper, lower, digit, `-` as a special
/// character); for a site whose `passwordrules` it does not meet, `RulesPasswordGenerator` draws
/// one that does.
public enum PasswordGenerator {
    static let lower = Array("abcdefghijkmnopqrstuvwxyz".utf8)
    static let upper = Array("ABCDEFGHJKLMNPQRSTUVWXYZ".utf8)
    static let digits = Array("23456789".utf8)

    public static func generate() throws(VaultCryptoError) -> SecureBytes {
        let alphabet = lower + upper + digits
        while true {
            var password = try SecureBytes(capacity: 20)
            var hasUpper = false, hasDigit = false, hasLower = false
            for position in 0 ..< 20 {
                if position == 6 || position == 13 {
                    try password.append(0x2D)
                    continue
                }
                let index = Int(try RandomBytes.uniform(UInt32(alphabet.count)))
                let byte = alphabet[index]
                hasLower = hasLower || lower.contains(byte)
                hasUpper = hasUpper || upper.contains(byte)
                hasDigit = hasDigit || digits.contains(byte)
                try password.append(byte)
            }
            if hasLower, hasUpper, hasDigit { return password }
        }
    }
}
