internal import CSodium

/// OpenSSH's `chacha20-poly1305@openssh.com` (PROTOCOL.chacha20poly1305), as it encrypts a private
/// key file: not RFC 8439's AEAD but the original ChaCha20 with a 64-bit nonce and counter.
///
/// Its 64-byte key is two keys; in a packet the second encrypts the length, and a file has no
/// length to hide, so only the first, K_main, is used. The nonce is the packet's sequence number,
/// 0 for a file. Poly1305's one-time key is ChaCha20's first 32 bytes of keystream (block 0); the
/// data is encrypted with the keystream from block 1 on; the 16-byte tag is Poly1305 over the
/// ciphertext (no associated data in a file). The tag is checked, in constant time, before a byte
/// is decrypted.
public enum OpenSSHChaCha20Poly1305 {
    public static let keyByteCount = 64
    public static let tagByteCount = 16

    /// Decrypts `ciphertext` into `plaintext` (the same length); `authenticationFailed` when
    /// `tag` is not its tag under `key`.
    public static func decrypt(
        _ ciphertext: UnsafeRawBufferPointer, into plaintext: UnsafeMutableRawBufferPointer,
        key: UnsafeRawBufferPointer, tag: UnsafeRawBufferPointer
    ) throws(VaultCryptoError) {
        try Sodium.ready()
        guard key.count == keyByteCount, tag.count == tagByteCount, plaintext.count == ciphertext.count else {
            throw .invalidInput("chacha20-poly1305@openssh.com: a 64-byte key, a 16-byte tag")
        }
        let nonce = [UInt8](repeating: 0, count: 8)
        var polyKey = try SecureBytes(zeros: 32)
        try polyKey.withUnsafeMutableBytes { (polyKey) throws(VaultCryptoError) in
            let status = nonce.withUnsafeBufferPointer {
                crypto_stream_chacha20(polyKey.mutableBytes, 32, $0.bytes, key.bytes)
            }
            guard status == 0 else {
                throw .invalidInput("ChaCha20 failed")
            }
            guard
                crypto_onetimeauth_poly1305_verify(
                    tag.bytes, ciphertext.bytes, UInt64(ciphertext.count), UnsafeRawBufferPointer(polyKey).bytes) == 0
            else { throw .authenticationFailed }
        }
        guard
            nonce.withUnsafeBufferPointer({ nonce in
                crypto_stream_chacha20_xor_ic(
                    plaintext.mutableBytes, ciphertext.bytes, UInt64(ciphertext.count), nonce.bytes, 1, key.bytes)
            }) == 0
        else { throw .invalidInput("ChaCha20 failed") }
    }
}
