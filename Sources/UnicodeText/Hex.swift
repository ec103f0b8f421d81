/// Hexadecimal digits, written by hand: names of files and notes that hold public bytes (a salt,
/// a hash, a random suffix), escapes, percent-encoding, the use history's ids. A `String(format:)`
/// per byte needed the whole of Foundation, and `UUID.uuidString` goes through snprintf.
public enum Hex {
    private static let lowerDigits = Array("0123456789abcdef".utf8)
    private static let upperDigits = Array("0123456789ABCDEF".utf8)

    /// Bytes as lowercase hex, two digits each.
    public static func string(_ bytes: [UInt8]) -> String {
        var text: [UInt8] = []
        for byte in bytes {
            text.append(lowerDigits[Int(byte >> 4)])
            text.append(lowerDigits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// Two upper-case digits.
    public static func upper(_ byte: UInt8) -> String {
        String(decoding: [upperDigits[Int(byte >> 4)], upperDigits[Int(byte & 0x0F)]], as: UTF8.self)
    }

    /// `width` lower-case digits, zero-padded (more if the value needs them).
    public static func lower(_ value: UInt32, width: Int) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    /// A UUID's 16 bytes as its canonical lowercase text (8-4-4-4-12). Concrete types only: a
    /// generic parameter is not specialized across modules, and its metadata lookups made this
    /// most of the use history's write (perf).
    public static func uuid(_ bytes: [UInt8]) -> String {
        var text: [UInt8] = []
        text.reserveCapacity(36)
        for index in bytes.indices {
            if index == 4 || index == 6 || index == 8 || index == 10 { text.append(UInt8(ascii: "-")) }
            text.append(lowerDigits[Int(bytes[index] >> 4)])
            text.append(lowerDigits[Int(bytes[index] & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
