import Foundation
import PwtuiTestSupport
import Testing
import VaultCrypto
import VaultModel

/// JSON pwtui writes (list, show, `get --field json`) carries no raw C1, bidi or zero-width
/// scalar, which a terminal showing it would obey (U+009B is CSI), and still decodes to the
/// same text.
@Suite("JSON text")
struct JSONTextTests {
    static let hostile = "a\u{9B}31m\u{202E}b\u{200B}c\u{FEFF}\u{1B}d é 🔑"

    @Test func quotedTextEscapesC1BidiAndZeroWidth() throws {
        let quoted = JSONText.quote(Self.hostile)
        #expect(quoted == "\"a\\u009b31m\\u202eb\\u200bc\\ufeff\\u001bd é 🔑\"")
        #expect(try JSONDecoder().decode(String.self, from: Data(quoted.utf8)) == Self.hostile)
    }

    @Test func aSecretIsEscapedTheSameFromItsBytes() throws {
        var output = try secure([])
        let secret = try secure(Self.hostile)
        try secret.withUnsafeBytes { try JSONText.appendQuoted($0, to: &output) }
        let text = output.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
        #expect(text == JSONText.quote(Self.hostile))
    }
}
