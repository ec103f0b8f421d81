import Foundation

/// A rough strength estimate for a master password, from its length and the kinds of characters
/// it uses: enough to warn about "hunter2", not a promise about a long one. Dictionary words and
/// patterns would lower the real strength further; the estimate only errs on the kind side for
/// long passphrases, which are strong anyway.
public struct PasswordStrength: Equatable, Sendable {
    public let bits: Int

    public enum Verdict: String, Sendable {
        case weak, fair, strong
    }

    public var verdict: Verdict {
        bits < 50 ? .weak : bits < 72 ? .fair : .strong
    }

    /// Estimates from the UTF-8 bytes of a password (which the caller holds in protected memory).
    public init(utf8 bytes: UnsafeRawBufferPointer) {
        var lower = false, upper = false, digit = false, other = false, nonASCII = false
        var characters = 0
        var distinct = Set<UInt8>()
        for byte in bytes {
            if byte & 0xC0 != 0x80 { characters += 1 }
            distinct.insert(byte)
            switch byte {
            case 0x61 ... 0x7A: lower = true
            case 0x41 ... 0x5A: upper = true
            case 0x30 ... 0x39: digit = true
            case 0x80...: nonASCII = true
            default: other = true
            }
        }
        var pool = 0
        if lower { pool += 26 }
        if upper { pool += 26 }
        if digit { pool += 10 }
        if other { pool += 33 }
        if nonASCII { pool += 100 }
        let perCharacter = pool > 1 ? Double(pool).log2 : 0
        // Repetition ("aaaaaaaa") earns little: count at most twice the distinct bytes.
        let effective = min(characters, distinct.count * 2)
        bits = Int(perCharacter * Double(effective))
    }
}

private extension Double {
    var log2: Double { Foundation.log2(self) }
}
