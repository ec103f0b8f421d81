import Foundation
import PwtuiTestSupport
import Testing
import UnicodeText

/// `PrintableText`, the one function text from outside passes through before a terminal sees it:
/// generated strings mixing every scalar it must escape with ordinary text.
@Suite struct PrintableTextTests {
    /// Every scalar that must never reach a terminal raw: C0, DEL, C1, the bidi controls, the
    /// zero-width characters, the line and paragraph separators. Written out from the issue's
    /// list, not from `isUnsafe`, so a scalar dropped there is caught here.
    static let unsafe: [Unicode.Scalar] =
        (0x00 ... 0x1F).map { Unicode.Scalar(UInt8($0)) } + (0x7F ... 0x9F).map { Unicode.Scalar(UInt8($0)) }
        + [
            0x061C, 0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069,
            0x200B, 0x200C, 0x200D, 0x2060, 0xFEFF, 0x2028, 0x2029,
        ].map { Unicode.Scalar($0)! }

    /// Ordinary text: printable ASCII, letters of other scripts, a combining accent, emoji, CJK.
    static let ordinary: [String] =
        (0x20 ... 0x7E).map { String(UnicodeScalar(UInt8($0))) }
        + ["é", "ß", "Ж", "ж", "λ", "א", "ش", "日本語", "한", "e\u{301}", "🔑", "👍🏽", "\u{A0}", "…", "€"]

    static func generated(count: Int, seed: UInt64) -> [String] {
        var generator = SeededGenerator(seed: seed)
        return (0 ..< count).map { _ in
            (0 ..< Int.random(in: 0 ... 12, using: &generator)).map { _ in
                Bool.random(using: &generator)
                    ? String(unsafe.randomElement(using: &generator)!) : ordinary.randomElement(using: &generator)!
            }.joined()
        }
    }

    static func names(_ text: String) -> String {
        text.unicodeScalars.map { "U+" + String($0.value, radix: 16) }.joined(separator: " ")
    }

    @Test func escapedNeverHoldsAnUnsafeScalar() {
        let forbidden = Set(Self.unsafe)
        for text in Self.generated(count: 5000, seed: 1) {
            let shown = PrintableText.escaped(text)
            #expect(
                !shown.unicodeScalars.contains(where: forbidden.contains), "\(Self.names(text)) → \(Self.names(shown))")
            let echoed = PrintableText.echoed(text, limit: 5)
            #expect(
                !echoed.unicodeScalars.contains(where: forbidden.contains),
                "\(Self.names(text)) → \(Self.names(echoed))")
        }
    }

    @Test func messagesKeepTheirLineBreaksAndNothingElseUnsafe() {
        let forbidden = Set(Self.unsafe).subtracting(["\n", "\t"])
        for text in Self.generated(count: 5000, seed: 2) {
            let shown = PrintableText.message(text)
            #expect(
                !shown.unicodeScalars.contains(where: forbidden.contains), "\(Self.names(text)) → \(Self.names(shown))")
            #expect(
                shown.unicodeScalars.filter { $0 == "\n" }.count == text.unicodeScalars.filter { $0 == "\n" }.count,
                "\(Self.names(text))")
        }
    }

    @Test func ordinaryTextPassesThroughUnchanged() {
        var generator = SeededGenerator(seed: 3)
        for _ in 0 ..< 3000 {
            let text = (0 ..< Int.random(in: 0 ... 16, using: &generator)).map { _ in
                Self.ordinary.randomElement(using: &generator)!
            }.joined()
            #expect(PrintableText.escaped(text) == text)
            #expect(PrintableText.message(text) == text)
            #expect(PrintableText.jsonEscaped(text) == text)
            #expect(PrintableText.echoed(text) == text, "under the limit: not cut")
        }
    }

    @Test func theEscapesAreVisibleAndNamed() {
        #expect(PrintableText.escaped("invoice\u{202E}gpj.exe") == "invoice\\u{202E}gpj.exe")
        #expect(PrintableText.escaped("a\nb\tc\r\u{1B}]2;x\u{07}") == "a\\nb\\tc\\r\\e]2;x\\u{07}")
        #expect(PrintableText.escaped("\u{9B}31m\u{200B}\u{FEFF}") == "\\u{9B}31m\\u{200B}\\u{FEFF}")
        #expect(PrintableText.message("line one\nline\u{1B}[2J two") == "line one\nline\\e[2J two")
        #expect(PrintableText.escaped("C:\\path") == "C:\\path", "a backslash is printable ASCII: left alone")
    }

    @Test func echoedInputIsCutAndSaysItsLength() {
        let huge = String(repeating: "x", count: 5_000_000)
        let shown = PrintableText.echoed(huge)
        #expect(shown == String(repeating: "x", count: 200) + "… (5000000 characters in all)")
        let exact = String(repeating: "y", count: 200)
        #expect(PrintableText.echoed(exact) == exact)
        #expect(PrintableText.echoed(String(repeating: "\u{1B}", count: 1000)).count < 200 * 2 + 40)
    }

    @Test func jsonKeepsItsValuesAndLosesItsRawControls() throws {
        for text in Self.generated(count: 2000, seed: 4) {
            let encoded = String(decoding: try JSONEncoder().encode([text]), as: UTF8.self)
            let escaped = PrintableText.jsonEscaped(encoded)
            #expect(!escaped.unicodeScalars.contains(where: Set(Self.unsafe).contains), "\(Self.names(escaped))")
            let decoded = try JSONDecoder().decode([String].self, from: Data(escaped.utf8))
            #expect(decoded == [text], "\(Self.names(text))")
        }
    }
}
