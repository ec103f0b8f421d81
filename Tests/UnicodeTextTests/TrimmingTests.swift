import Foundation
import Testing
import UnicodeText

/// Foundation's `trimmingCharacters(in:)` is the reference: what the project called before it
/// stopped linking the whole of Foundation.
@Suite struct TrimmingTests {
    /// Every space separator, the line ends, tab, and neighbours that must stay: a combining mark,
    /// ZERO WIDTH SPACE and NO-BREAK... (U+200B and U+FEFF are not spaces to Foundation either).
    static let pieces: [String] = [
        "\u{20}", "\u{A0}", "\u{1680}", "\u{2000}", "\u{2005}", "\u{200A}", "\u{202F}", "\u{205F}",
        "\u{3000}", "\t", "\n", "\u{0B}", "\u{0C}", "\r", "\u{85}", "\u{2028}", "\u{2029}",
        "\u{200B}", "\u{FEFF}", "\u{301}", "a", "é", "🔑", "x y",
    ]

    static func generated(count: Int) -> [String] {
        var generator = SystemRandomNumberGenerator()
        return (0 ..< count).map { _ in
            (0 ..< Int.random(in: 0 ... 8, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }
                .joined()
        }
    }

    @Test func spacesAsFoundationTrimmedThem() {
        for text in Self.generated(count: 3000) {
            #expect(
                Array(text.trimmingSpaces().unicodeScalars)
                    == Array(text.trimmingCharacters(in: .whitespaces).unicodeScalars),
                "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
        }
    }

    @Test func spacesAndNewlinesAsFoundationTrimmedThem() {
        for text in Self.generated(count: 3000) {
            #expect(
                Array(text.trimmingSpacesAndNewlines().unicodeScalars)
                    == Array(text.trimmingCharacters(in: .whitespacesAndNewlines).unicodeScalars),
                "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
        }
    }

    @Test func aSubstringTrimsToo() {
        let line = "  key = value  "
        #expect(line.split(separator: "=").map { $0.trimmingSpaces() } == ["key", "value"])
    }
}

@Suite struct ReplacingTests {
    @Test func replacesEveryOccurrenceScalarByScalar() {
        #expect("it's".replacingEvery("'", with: "'\\''") == "it'\\''s")
        // A quote and a combining mark are one Character: String.replacing would not see the quote.
        let tricky = "a'\u{301}b"
        #expect(Array(tricky.replacingEvery("'", with: "\\'").unicodeScalars) == Array("a\\'\u{301}b".unicodeScalars))
        #expect("aaa".replacingEvery("aa", with: "b") == "ba")
        #expect("".replacingEvery("x", with: "y") == "")
        #expect("HMAC-SHA-256".replacingEvery("HMAC-", with: "").replacingEvery("-", with: "") == "SHA256")
    }
}

@Suite struct EscapeTests {
    @Test func hexDigitsAsPrintfWritesThem() {
        for value in [0, 1, 0x1F, 0x7F, 0xAB, 0x1234, 0xFFFF, 0x10FFFF] as [UInt32] {
            #expect(Hex.lower(value, width: 4) == String(format: "%04x", value))
        }
        for byte in 0 ... 255 {
            #expect(Hex.upper(UInt8(byte)) == String(format: "%02X", byte))
        }
    }

    @Test func percentEncodingLeavesOnlyASCIIAlphanumerics() {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("aZ09 -_.~/?#@:%+&=é€🔑\n'\"")
        for _ in 0 ..< 500 {
            let text = String(
                (0 ..< Int.random(in: 0 ... 10, using: &generator)).map { _ in
                    alphabet.randomElement(using: &generator)!
                })
            let encoded = text.percentEncodingAllButAlphanumerics
            #expect(
                encoded.utf8.allSatisfy {
                    $0 == UInt8(ascii: "%") || ($0 < 0x80 && Character(Unicode.Scalar($0)).isLetter)
                        || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9"))
                })
            #expect(encoded.removingPercentEncoding == text)
        }
        #expect("Alice Smith".percentEncodingAllButAlphanumerics == "Alice%20Smith")
        #expect("é".percentEncodingAllButAlphanumerics == "%C3%A9")
    }
}
