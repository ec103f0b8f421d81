internal import CSodium

/// XChaCha20-Poly1305-IETF: a 24-byte nonce, large enough to be drawn at random for every
/// message without counting, and a 16-byte tag over the ciphertext and the associated data.
public enum XChaCha20Poly1305 {
    public static let keyByteCount = Int(crypto_aead_xchacha20poly1305_ietf_KEYBYTES)
    public static let nonceByteCount = Int(crypto_aead_xchacha20poly1305_ietf_NPUBBYTES)
    public static let tagByteCount = Int(crypto_aead_xchacha20poly1305_ietf_ABYTES)

    /// Encrypts `plaintext` into `output`, which must be exactly `plaintext.count + tagByteCount`
    /// bytes (ciphertext followed by the tag). Writing in place into a caller's buffer lets the
    /// vault encrypt straight into the file image without an intermediate copy.
    public static func seal(
        _ plaintext: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer,
        key: borrowing SecureBytes, nonce: UnsafeRawBufferPointer, associatedData: UnsafeRawBufferPointer
    ) throws(VaultCryptoError) {
        try Sodium.ready()
        try check(key: key, nonce: nonce)
        guard output.count == plaintext.count + tagByteCount else {
            throw .invalidInput("AEAD output buffer has the wrong size")
        }
        let status = key.withUnsafeBytes { keyBytes in
            crypto_aead_xchacha20poly1305_ietf_encrypt(
                output.mutableBytes, nil, plaintext.bytes, UInt64(plaintext.count),
                associatedData.bytes, UInt64(associatedData.count), nil, nonce.bytes, keyBytes.bytes)
        }
        guard status == 0 else { throw .invalidInput("encryption failed") }
    }

    /// Convenience for small messages (the wrapped data key).
    public static func seal(
        _ plaintext: borrowing SecureBytes, key: borrowing SecureBytes,
        nonce: [UInt8], associatedData: [UInt8]
    ) throws(VaultCryptoError) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: plaintext.count + tagByteCount)
        try narrowingErrors {
            try plaintext.withUnsafeBytes { plain in
                try output.withUnsafeMutableBytes { out in
                    try nonce.withUnsafeBytes { nonceBytes in
                        try associatedData.withUnsafeBytes { ad in
                            try seal(plain, into: out, key: key, nonce: nonceBytes, associatedData: ad)
                        }
                    }
                }
            }
        }
        return output
    }

    /// Decrypts and authenticates `ciphertext` (ciphertext followed by the tag) into protected
    /// memory. Any change to the ciphertext, nonce, key or associated data fails as a whole.
    public static func open(
        _ ciphertext: UnsafeRawBufferPointer, key: borrowing SecureBytes,
        nonce: UnsafeRawBufferPointer, associatedData: UnsafeRawBufferPointer
    ) throws(VaultCryptoError) -> SecureBytes {
        try Sodium.ready()
        try check(key: key, nonce: nonce)
        guard ciphertext.count >= tagByteCount else { throw .authenticationFailed }
        var plaintext = try SecureBytes(zeros: ciphertext.count - tagByteCount)
        let status = key.withUnsafeBytes { keyBytes in
            plaintext.withUnsafeMutableBytes { output in
                crypto_aead_xchacha20poly1305_ietf_decrypt(
                    output.mutableBytes, nil, nil, ciphertext.bytes, UInt64(ciphertext.count),
                    associatedData.bytes, UInt64(associatedData.count), nonce.bytes, keyBytes.bytes)
            }
        }
        guard status == 0 else { throw .authenticationFailed }
        return plaintext
    }

    public static func open(
        _ ciphertext: [UInt8], key: borrowing SecureBytes, nonce: [UInt8], associatedData: [UInt8]
    ) throws(VaultCryptoError) -> SecureBytes {
        // Array's closures cannot return a ~Copyable value, so it leaves through an Optional.
        var plaintext: SecureBytes?
        try narrowingErrors {
            try ciphertext.withUnsafeBytes { cipher in
                try nonce.withUnsafeBytes { nonceBytes in
                    try associatedData.withUnsafeBytes { ad in
                        plaintext = try open(cipher, key: key, nonce: nonceBytes, associatedData: ad)
                    }
                }
            }
        }
        guard let plaintext = plaintext.take() else { throw .authenticationFailed }
        return plaintext
    }

    private static func check(key: borrowing SecureBytes, nonce: UnsafeRawBufferPointer) throws(VaultCryptoError) {
        guard key.count == keyByteCount else { throw .invalidInput("key must be \(keyByteCount) bytes") }
        guard nonce.count == nonceByteCount else { throw .invalidInput("nonce must be \(nonceByteCount) bytes") }
    }
}
