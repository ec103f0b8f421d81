/// One `HASH:COUNT` line's parts, the hash compared digit by digit with a digest's nibbles, so
/// neither is ever turned into text.
enum PwnedLine {
    /// The value of one hexadecimal digit (either case), nil for anything else.
    static func nibble(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0") ... UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "A") ... UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a") ... UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        default: return nil
        }
    }

    /// Nibble `index` (0 to 39) of a 20-byte digest.
    static func nibble(of digest: UnsafeRawBufferPointer, at index: Int) -> UInt8 {
        let byte = digest[index / 2]
        return index % 2 == 0 ? byte >> 4 : byte & 0x0F
    }

    /// `line` (without its end) as `hexDigits` hex digits, a colon and a decimal count: the
    /// digits' nibbles and the count; nil when it is not that.
    static func parse(_ line: ArraySlice<UInt8>, hexDigits: Int) -> (nibbles: [UInt8], count: Int)? {
        var end = line.endIndex
        if end > line.startIndex, line[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        let colon = line.startIndex + hexDigits
        guard end > colon + 1, line[colon] == UInt8(ascii: ":") else { return nil }
        var nibbles = [UInt8]()
        nibbles.reserveCapacity(hexDigits)
        for byte in line[line.startIndex ..< colon] {
            guard let value = nibble(byte) else { return nil }
            nibbles.append(value)
        }
        var count = 0
        for byte in line[(colon + 1) ..< end] {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            let (times, overflow) = count.multipliedReportingOverflow(by: 10)
            guard !overflow else { return nil }
            count = times &+ Int(byte - UInt8(ascii: "0"))
        }
        return (nibbles, count)
    }

    static let orderedExpectation = "HASH:COUNT (a SHA-1 in 40 hexadecimal digits, a colon, a count)"
    static let rangeExpectation = "SUFFIX:COUNT (the 35 hexadecimal digits after the prefix, a colon, a count)"
}
