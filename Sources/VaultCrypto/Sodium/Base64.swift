internal import CSodium

/// Base64 (RFC 4648, the standard alphabet with padding) between protected buffers, by libsodium
/// (`sodium_base642bin`, `sodium_bin2base64`): a private key file's body is its key, so neither
/// the text nor the decoded bytes may pass through a `String` or an ordinary array.
public enum Base64 {
    /// The bytes `text` encodes, ignoring line breaks, carriage returns, spaces and tabs; nil when
    /// it is not base64 (another character, a bad length or padding).
    public static func decode(_ text: UnsafeRawBufferPointer) throws(VaultCryptoError) -> SecureBytes? {
        try Sodium.ready()
        var bytes = try SecureBytes(zeros: text.count / 4 * 3 + 3)
        var length = 0
        var end: UnsafePointer<CChar>?
        let ignored: StaticString = "\r\n \t"
        let status = bytes.withUnsafeMutableBytes { out in
            text.withMemoryRebound(to: CChar.self) { text in
                ignored.withUTF8Buffer { ignored in
                    ignored.withMemoryRebound(to: CChar.self) { ignored in
                        sodium_base642bin(
                            out.mutableBytes, out.count, text.baseAddress, text.count, ignored.baseAddress, &length,
                            &end, sodium_base64_VARIANT_ORIGINAL)
                    }
                }
            }
        }
        // The whole text must be base64: stopping early means a character that is not.
        guard status == 0, let end, let start = text.baseAddress,
            UnsafeRawPointer(end) == start + text.count
        else { return nil }
        bytes.removeLast(bytes.count - length)
        return bytes
    }

    /// `bytes` as base64, with a line break after every `lineLength` characters and at the end.
    public static func encode(_ bytes: borrowing SecureBytes, lineLength: Int) throws(VaultCryptoError) -> SecureBytes {
        try Sodium.ready()
        guard lineLength > 0 else { throw .invalidInput("a base64 line holds at least one character") }
        let encodedLength = sodium_base64_encoded_len(bytes.count, sodium_base64_VARIANT_ORIGINAL)
        var encoded = try SecureBytes(zeros: encodedLength)
        encoded.withUnsafeMutableBytes { out in
            bytes.withUnsafeBytes { source in
                out.withMemoryRebound(to: CChar.self) { out in
                    guard let base = out.baseAddress else { return }
                    _ = sodium_bin2base64(base, out.count, source.bytes, source.count, sodium_base64_VARIANT_ORIGINAL)
                }
            }
        }
        let characters = encodedLength - 1  // without the terminating NUL
        var lines = try SecureBytes(capacity: characters + characters / lineLength + 1)
        try encoded.withUnsafeBytes { (text) throws(VaultCryptoError) in
            for start in stride(from: 0, to: characters, by: lineLength) {
                let end = min(start + lineLength, characters)
                try lines.append(contentsOf: UnsafeRawBufferPointer(rebasing: text[start ..< end]))
                try lines.append(0x0A)
            }
        }
        return lines
    }
}
