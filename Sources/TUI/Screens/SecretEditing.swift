import VaultCrypto

/// Editing typed secrets in place: every prompt and screen that takes a password removes whole
/// UTF-8 characters on Backspace (never half of "é") and shows one dot per character.
extension SecureBytes {
    /// Forgets the last UTF-8 character (zeroing its bytes).
    public mutating func removeLastCharacter() {
        let length = withUnsafeBytes { bytes in
            var length = 0
            for byte in bytes.reversed() {
                length += 1
                if byte & 0xC0 != 0x80 { break }
            }
            return length
        }
        removeLast(length)
    }

    /// UTF-8 characters held (lead bytes), for the dots.
    var characterCount: Int {
        withUnsafeBytes { bytes in bytes.reduce(0) { $0 + ($1 & 0xC0 != 0x80 ? 1 : 0) } }
    }
}
