extension StringProtocol {
    /// Every byte but ASCII letters and digits as %XX (upper-case hex), as RFC 3986 allows in
    /// any component. Foundation's `.alphanumerics` left non-ASCII letters raw; a URI is ASCII.
    public var percentEncodingAllButAlphanumerics: String {
        var encoded = ""
        for byte in utf8 {
            switch byte {
            case UInt8(ascii: "a") ... UInt8(ascii: "z"), UInt8(ascii: "A") ... UInt8(ascii: "Z"),
                UInt8(ascii: "0") ... UInt8(ascii: "9"):
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                encoded += "%" + Hex.upper(byte)
            }
        }
        return encoded
    }
}
