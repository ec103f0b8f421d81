/// What no output or message of pwtui may carry raw: C0 (but tab and newline), DEL, C1, bidi
/// controls and zero-width characters — `PrintableText`'s list, written again here on purpose so
/// that the tests do not check the escaping with the escaper's own table.
package enum UnsafeScalars {
    package static func contains(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00 ... 0x08, 0x0B ... 0x1F, 0x7F ... 0x9F, 0x061C, 0x200B ... 0x200F, 0x202A ... 0x202E, 0x2060,
            0x2066 ... 0x2069, 0xFEFF:
            return true
        default: return false
        }
    }

    /// Whether `text` has none of them.
    package static func absent(from text: String) -> Bool {
        !text.unicodeScalars.contains(where: contains)
    }
}
