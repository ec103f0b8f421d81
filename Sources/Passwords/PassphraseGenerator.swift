import FoundationEssentials
import Glibc
import VaultCrypto

/// Passphrases: words drawn uniformly from the EFF's large list (7,776 words, 12.9 bits each,
/// chosen to be easy to type and hard to confuse), joined by hyphens: `cubicle-unsaid-glimpse-
/// shrink-ramp-outfit`. Six words are 77 bits; fewer than six is weaker than the default
/// password, and the command says so.
public enum PassphraseGenerator {
    static let words: [String] = wordText.split(separator: "\n").map(String.init)
    public static let recommendedWords = 6
    public static let wordRange = 1 ... 64

    /// A count of words outside `wordRange`; the command checks first and says it in its own words.
    public struct InvalidWordCount: Error, CustomStringConvertible {
        public let count: Int
        public var description: String { "a passphrase has 1 to 64 words, not \(count)" }
    }

    /// A passphrase of `count` words, in protected memory. Throws `InvalidWordCount`, or the
    /// `VaultCryptoError` of protected memory or randomness.
    public static func generate(words count: Int) throws -> SecureBytes {
        guard wordRange.contains(count) else { throw InvalidWordCount(count: count) }
        var phrase = try SecureBytes(capacity: count * 10)
        for position in 0 ..< count {
            let index = Int(try RandomBytes.uniform(UInt32(words.count)))
            if position > 0 { try phrase.append(UInt8(ascii: "-")) }
            for byte in words[index].utf8 { try phrase.append(byte) }
        }
        return phrase
    }

    /// Bits of entropy of a passphrase of `count` words.
    public static func bits(words count: Int) -> Double { Double(count) * log2(Double(words.count)) }
}
