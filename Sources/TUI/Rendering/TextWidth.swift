// How many terminal columns text takes. `String.count` is not it: 日本語 is three characters and
// six columns, a combining accent takes none. This follows what wcwidth(3) answers in a UTF-8
// locale for the characters people put in titles and usernames (East Asian wide and fullwidth
// ranges, emoji presentation, zero-width marks), in Swift, so that the in-memory grid used by
// the tests measures exactly as the real screen does. `pwtui list` pads its table with it too.
public enum TextWidth {
    public static func columns(of scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value == 0 { return 0 }
        if value < 0x20 || (value >= 0x7F && value < 0xA0) { return 0 }
        let properties = scalar.properties
        switch properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        if value == 0x200B || (0xFE00 ... 0xFE0F).contains(value) { return 0 }
        if isWide(value) || properties.isEmojiPresentation { return 2 }
        return 1
    }

    public static func columns(of character: Character) -> Int {
        var width = 0
        for scalar in character.unicodeScalars { width = max(width, columns(of: scalar)) }
        return character.unicodeScalars.count > 1
            && character.unicodeScalars.contains(where: { $0.properties.isEmojiPresentation }) ? 2 : width
    }

    public static func columns(of text: String) -> Int {
        // Printable ASCII (most titles, every domain) is one column a byte, with no Unicode
        // property lookups: those made `pwtui list` of 1,000 credentials 25 ms slower.
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text.utf8.count }
        return text.reduce(0) { $0 + columns(of: $1) }
    }

    private static func isWide(_ value: UInt32) -> Bool {
        (0x1100 ... 0x115F).contains(value) || (0x2E80 ... 0x303E).contains(value)
            || (0x3041 ... 0x33FF).contains(value)
            || (0x3400 ... 0x4DBF).contains(value) || (0x4E00 ... 0x9FFF).contains(value)
            || (0xA000 ... 0xA4CF).contains(value)
            || (0xAC00 ... 0xD7A3).contains(value) || (0xF900 ... 0xFAFF).contains(value)
            || (0xFE30 ... 0xFE4F).contains(value)
            || (0xFF00 ... 0xFF60).contains(value) || (0xFFE0 ... 0xFFE6).contains(value)
            || (0x20000 ... 0x2FFFD).contains(value) || (0x30000 ... 0x3FFFD).contains(value)
    }
}
