/// A word for /bin/sh (a clipboard clear run later, git's merge driver line, a command `doctor`
/// suggests): in single quotes, each quote inside closed, escaped and reopened. By bytes, so a
/// quote that a combining mark follows (one Swift `Character`) is still escaped.
public enum ShellWord {
    public static func quoted(_ word: String) -> String {
        var bytes: [UInt8] = [UInt8(ascii: "'")]
        for byte in word.utf8 {
            if byte == UInt8(ascii: "'") {
                bytes += Array("'\\''".utf8)
            } else {
                bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "'"))
        return String(decoding: bytes, as: UTF8.self)
    }
}
