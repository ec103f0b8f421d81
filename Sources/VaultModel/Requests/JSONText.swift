import FoundationEssentials
import Platform
import ServiceMatching
import UnicodeText
import VaultCrypto

/// The little JSON pwtui writes: strings, numbers, arrays and objects of them. Written by hand
/// because one value (the secret, with `--field json`) must be escaped from protected memory
/// into protected memory, which no JSON encoder does.
public enum JSONText {
    public static func quote(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            // C0 as JSON requires; C1 (U+009B is CSI), bidi and zero-width too, which a terminal
            // showing the JSON would obey (PrintableText's list); the value decodes the same.
            case _ where PrintableText.isUnsafe(scalar):
                result += "\\u" + Hex.lower(scalar.value, width: 4)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    /// Appends `bytes` (UTF-8) as a JSON string to `output`. Invalid UTF-8 is written as the
    /// replacement character's escape, so the output always parses.
    public static func appendQuoted(_ bytes: UnsafeRawBufferPointer, to output: inout SecureBytes) throws {
        try output.append(0x22)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case 0x22, 0x5C:
                try output.append(0x5C)
                try output.append(byte)
            case 0x00 ..< 0x20:
                for escapeByte in Array(("\\u" + Hex.lower(UInt32(byte), width: 4)).utf8) {
                    try output.append(escapeByte)
                }
            case 0x20 ..< 0x80:
                try output.append(byte)
            default:
                let length = utf8SequenceLength(bytes, at: index)
                if length == 0 {
                    for escapeByte in Array("\\ufffd".utf8) { try output.append(escapeByte) }
                    index += 1
                    continue
                }
                let sequence = UnsafeRawBufferPointer(rebasing: bytes[index ..< index + length])
                // The scalar is computed from the bytes, not decoded into a String: this is a secret.
                var value = UInt32(byte) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
                for offset in 1 ..< length { value = value << 6 | UInt32(bytes[index + offset] & 0x3F) }
                if let scalar = Unicode.Scalar(value), PrintableText.isUnsafe(scalar) {
                    for escapeByte in Array(("\\u" + Hex.lower(scalar.value, width: 4)).utf8) {
                        try output.append(escapeByte)
                    }
                } else {
                    try output.append(contentsOf: sequence)
                }
                index += length
                continue
            }
            index += 1
        }
        try output.append(0x22)
    }

    /// The length of a valid UTF-8 sequence starting at `index`, or 0.
    private static func utf8SequenceLength(_ bytes: UnsafeRawBufferPointer, at index: Int) -> Int {
        let lead = bytes[index]
        let length: Int
        switch lead {
        case 0xC2 ... 0xDF: length = 2
        case 0xE0 ... 0xEF: length = 3
        case 0xF0 ... 0xF4: length = 4
        default: return 0
        }
        guard index + length <= bytes.count else { return 0 }
        for offset in 1 ..< length where bytes[index + offset] & 0xC0 != 0x80 { return 0 }
        return String(validating: UnsafeRawBufferPointer(rebasing: bytes[index ..< index + length]), as: UTF8.self)
            == nil ? 0 : length
    }
}
