/// The bytes of an export file seen as text: checked to be UTF-8, its byte order mark stepped
/// over, and any offset into it translatable to a line and a column.
///
/// The three readers (CSV, JSON, XML) share this because they share its three duties and they
/// must agree on them: what counts as a line break (LF, CRLF and a lone CR each end one line, so
/// that old Mac files and Windows files number their lines as an editor does), where column 1 is
/// (the first byte after the break; on line 1 the first byte after the BOM, which no editor
/// shows), and that the whole input is validated once before any parsing, so that no reader has
/// to think about malformed sequences inside a field.
///
/// Nothing here copies the input: it is a view of a buffer that the caller owns (and that may hold
/// passwords), and an `ImportFailure` made here carries a place and a reason, never bytes of the
/// input, except the value of a single byte that is not UTF-8, which cannot be a whole secret.
struct InputText {
    let bytes: UnsafeRawBufferPointer
    /// Where the content starts: 3 after a UTF-8 BOM, 0 otherwise.
    let start: Int
    var count: Int { bytes.count }

    /// Where `line(at:)` has counted up to, and the line there: lines asked for in increasing
    /// order of offset (the start of each record, of each element) cost linear time in total.
    private var cursorOffset: Int
    private var cursorLine = 1

    init(validating bytes: UnsafeRawBufferPointer) throws(ImportFailure) {
        self.bytes = bytes
        let hasBOM = bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF
        start = hasBOM ? 3 : 0
        cursorOffset = start
        if let bad = Self.firstInvalidUTF8(bytes, from: start) {
            throw failure(at: bad, "invalid UTF-8 (byte 0x\(Self.hex(bytes[bad])))")
        }
    }

    subscript(offset: Int) -> UInt8 { bytes[offset] }

    /// The bytes `range` of the input, for storing a value without an intermediate copy.
    func slice(_ range: Range<Int>) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: bytes[range])
    }

    /// The line of `offset`, which must not be before the offset of the previous call.
    mutating func line(at offset: Int) -> Int {
        if offset < cursorOffset {
            // Out of order: count again from the start (correct, only slower).
            cursorOffset = start
            cursorLine = 1
        }
        var index = cursorOffset
        while index < offset {
            let byte = bytes[index]
            if byte == 0x0A || (byte == 0x0D && (index + 1 >= bytes.count || bytes[index + 1] != 0x0A)) {
                cursorLine += 1
            }
            index += 1
        }
        cursorOffset = offset
        return cursorLine
    }

    /// A failure at byte `offset`, its line and column counted from the start (errors are rare:
    /// one pass over the input then costs nothing that matters).
    func failure(at offset: Int, _ reason: String) -> ImportFailure {
        var line = 1
        var lineStart = start
        var index = start
        let end = Swift.min(offset, bytes.count)
        while index < end {
            let byte = bytes[index]
            if byte == 0x0A || (byte == 0x0D && (index + 1 >= bytes.count || bytes[index + 1] != 0x0A)) {
                line += 1
                lineStart = index + 1
            }
            index += 1
        }
        return ImportFailure(line: line, column: offset - lineStart + 1, reason)
    }

    static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
    }

    /// The offset of the first byte that does not start a well-formed UTF-8 sequence (Unicode 15,
    /// table 3-7: no overlong forms, no surrogates, nothing above U+10FFFF), or nil. A sequence cut
    /// short is reported at its first byte: a Latin-1 "é" (0xE9) before an ASCII letter is then
    /// named as 0xE9, the byte the user has to fix, not as the letter.
    /// ASCII, which is nearly all of an export, takes one comparison a byte.
    static func firstInvalidUTF8(_ bytes: UnsafeRawBufferPointer, from start: Int) -> Int? {
        var index = start
        let count = bytes.count
        while index < count {
            let lead = bytes[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            // The length of the sequence, and the range its second byte must fall into.
            let length: Int
            var low: UInt8 = 0x80
            var high: UInt8 = 0xBF
            switch lead {
            case 0xC2 ... 0xDF: length = 2
            case 0xE0: length = 3; low = 0xA0
            case 0xE1 ... 0xEC, 0xEE ... 0xEF: length = 3
            case 0xED: length = 3; high = 0x9F
            case 0xF0: length = 4; low = 0x90
            case 0xF1 ... 0xF3: length = 4
            case 0xF4: length = 4; high = 0x8F
            default: return index
            }
            guard index + 1 < count, bytes[index + 1] >= low, bytes[index + 1] <= high else {
                return index
            }
            var next = index + 2
            while next < index + length {
                guard next < count, bytes[next] & 0xC0 == 0x80 else { return index }
                next += 1
            }
            index += length
        }
        return nil
    }
}
