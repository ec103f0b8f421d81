internal import COpenSSL

/// AES decryption in the modes OpenSSH encrypts private key files with (`ssh import`): CTR (its
/// default, aes256-ctr), CBC (no padding: the file pads itself) and GCM (aes256-gcm@openssh.com,
/// a 16-byte tag after the ciphertext, no associated data). Into the caller's protected memory.
public enum AESDecryption {
    public enum Mode: Sendable {
        case ctr
        case cbc
        case gcm
    }

    /// Decrypts `ciphertext` into `plaintext` (the same length) with `key` (16, 24 or 32 bytes;
    /// GCM 32) and `iv` (16 bytes; GCM 12). `authenticationFailed` when GCM's `tag` does not match.
    public static func decrypt(
        _ ciphertext: UnsafeRawBufferPointer, into plaintext: UnsafeMutableRawBufferPointer, mode: Mode,
        key: UnsafeRawBufferPointer, iv: UnsafeRawBufferPointer, tag: UnsafeRawBufferPointer? = nil
    ) throws(VaultCryptoError) {
        let cipher: Int
        switch (mode, key.count) {
        case (.ctr, 16): cipher = PWTUI_SSL_AES128_CTR
        case (.ctr, 24): cipher = PWTUI_SSL_AES192_CTR
        case (.ctr, 32): cipher = PWTUI_SSL_AES256_CTR
        case (.cbc, 16): cipher = PWTUI_SSL_AES128_CBC
        case (.cbc, 24): cipher = PWTUI_SSL_AES192_CBC
        case (.cbc, 32): cipher = PWTUI_SSL_AES256_CBC
        case (.gcm, 32): cipher = PWTUI_SSL_AES256_GCM
        default: throw .invalidInput("no AES-\(key.count * 8) in this mode")
        }
        guard iv.count == (mode == .gcm ? 12 : 16), plaintext.count == ciphertext.count,
            mode != .gcm || tag?.count == 16, mode == .gcm || ciphertext.count % 16 == 0
        else { throw .invalidInput("AES: wrong IV, tag or data length") }
        let status = pwtui_ssl_decrypt(
            Int32(cipher), key.bytes, iv.bytes, ciphertext.bytes, ciphertext.count, plaintext.mutableBytes,
            tag?.bytes ?? iv.bytes)
        if status == 0 { throw .authenticationFailed }
        guard status == 1 else { throw .invalidInput("AES decryption failed") }
    }
}
