/// The lines of a cell or file, as ranges of its bytes: what pass entries, a CSV cell's
/// `name: value` fields and LastPass's secure notes are read as. A line ends at LF; a CR before
/// it is not part of the line (CRLF); a last line without an LF counts, an empty one after the
/// last LF does not. Ranges, not copies: the bytes may be secrets in an arena.
enum LineRanges {
    static func of(_ bytes: UnsafeRawBufferPointer) -> [Range<Int>] {
        var lines: [Range<Int>] = []
        var start = 0
        for index in bytes.indices where bytes[index] == 0x0A {
            lines.append(start ..< (index > start && bytes[index - 1] == 0x0D ? index - 1 : index))
            start = index + 1
        }
        if start < bytes.count {
            lines.append(start ..< (bytes[bytes.count - 1] == 0x0D ? bytes.count - 1 : bytes.count))
        }
        return lines
    }
}
