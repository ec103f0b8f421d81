import Testing
import TUI

/// What reaches a terminal from a vault carries no control sequence: every C0, DEL and C1
/// character but line feed and tab becomes U+FFFD, whatever it is next to.
@Suite struct PrintableTextTests {
    @Test func controlsBecomeReplacementCharacters() {
        #expect(PrintableText.forTerminal("a\u{1B}]2;pwned\u{07}b") == "a\u{FFFD}]2;pwned\u{FFFD}b")
        #expect(PrintableText.forTerminal("x\u{9B}2Jy\u{7F}") == "x\u{FFFD}2Jy\u{FFFD}")
        #expect(PrintableText.forTerminal("line one\n\ttwo 日本") == "line one\n\ttwo 日本")
    }

    @Test("every scalar below U+00A0: exactly the controls but LF and TAB are replaced")
    func everyLowScalar() {
        for value in UInt32(0) ..< 0xA0 {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let out = PrintableText.forTerminal("a" + String(Character(scalar)) + "b")
            let isControl = (value < 0x20 || value >= 0x7F) && value != 0x0A && value != 0x09
            #expect(out == (isControl ? "a\u{FFFD}b" : "a" + String(Character(scalar)) + "b"), "U+\(String(value, radix: 16))")
        }
    }
}
