extension StringProtocol {
    /// Every byte but ASCII letters and digits as %XX (upper-case hex), as RFC 3986 allows in
    /// any component. Foundation's `.alphanumerics` left non-ASCII letters raw; a URI is ASCII.
    public var percentEncodingAllButAlphanumerics: String {
        var encoded = ""
        for byte in utf8 {
            switch byte {
            case UInt8(ascii: "a") ... UInt8(ascii: "z"), UInt8(ascii: "A") ... UInt8(ascii: "Z"), UInt8(ascii: "0") ... UInt8(ascii: "9"):
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                encoded += "%" + HexDigits.upper(byte)
            }
        }
        return encoded
    }
}

/// Hex digits for the few places that write a number in hex (escapes, percent-encoding), where
/// Foundation's `String(format:)` would need all of Foundation.
public enum HexDigits {
    private static let upperDigits = Array("0123456789ABCDEF".utf8)
    private static let lowerDigits = Array("0123456789abcdef".utf8)

    /// Two upper-case digits.
    public static func upper(_ byte: UInt8) -> String {
        String(decoding: [upperDigits[Int(byte >> 4)], upperDigits[Int(byte & 0x0F)]], as: UTF8.self)
    }

    /// `width` lower-case digits, zero-padded (more if the value needs them).
    public static func lower(_ value: UInt32, width: Int) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
