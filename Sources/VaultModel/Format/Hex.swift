/// Bytes as lowercase hexadecimal, two digits each: names of files and notes that hold public
/// bytes (a salt, a hash, a random suffix). Written once; a `String(format:)` per byte was
/// written four times and costs a Foundation call per byte.
public enum Hex {
    public static func string(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
