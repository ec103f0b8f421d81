import VaultCrypto

/// Secret bytes written as lowercase hexadecimal digits, and read back, in protected memory
/// only. A secret that is not text is kept as text this way (an SSH private key, a keyring
/// item's binary secret): every path that carries a password (export, `show --reveal`, history,
/// a merge) carries it as text, where raw bytes would reach a terminal or a CSV cell as garbage.
public enum SecretHex {
    /// `bytes` as lowercase hex digits.
    public static func encode(_ bytes: UnsafeRawBufferPointer) throws -> SecureBytes {
        var text = try SecureBytes(capacity: max(1, bytes.count * 2))
        let digits = Array("0123456789abcdef".utf8)
        for byte in bytes {
            try text.append(digits[Int(byte >> 4)])
            try text.append(digits[Int(byte & 0x0F)])
        }
        return text
    }

    /// The bytes `text` (hex digits, either case) stands for; nil when it is not an even number
    /// of hex digits. Every digit is read whatever the first bad one (no early exit on a secret).
    public static func decode(_ text: UnsafeRawBufferPointer) throws -> SecureBytes? {
        guard text.count % 2 == 0 else { return nil }
        var bytes = try SecureBytes(zeros: text.count / 2)
        let valid = bytes.withUnsafeMutableBytes { out in
            var valid = true
            for index in 0 ..< out.count {
                let high = nibble(text[2 * index])
                let low = nibble(text[2 * index + 1])
                valid = valid && high != nil && low != nil
                out[index] = ((high ?? 0) << 4) | (low ?? 0)
            }
            return valid
        }
        guard valid else { return nil }
        return bytes
    }

    /// A hexadecimal digit's value; nil for anything else.
    private static func nibble(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0") ... UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a") ... UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A") ... UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
