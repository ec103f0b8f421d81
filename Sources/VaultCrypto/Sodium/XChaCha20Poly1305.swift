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

    /// Encrypts in place: the first `message.count - tagByteCount` bytes are the plaintext and
    /// become the ciphertext, the last `tagByteCount` receive the tag. libsodium's AEAD permits
    /// the output to be the input (it encrypts before it authenticates the ciphertext), so a
    /// vault's payload is sealed in the protected buffer it was encoded in, which then is the
    /// file image: the payload held once instead of twice (issue 23). `associatedData` must not
    /// overlap `message`.
    public static func sealInPlace(
        _ message: UnsafeMutableRawBufferPointer, key: borrowing SecureBytes,
        nonce: UnsafeRawBufferPointer, associatedData: UnsafeRawBufferPointer
    ) throws(VaultCryptoError) {
        try Sodium.ready()
        try check(key: key, nonce: nonce)
        guard message.count >= tagByteCount else { throw .invalidInput("AEAD buffer is shorter than the tag") }
        let status = key.withUnsafeBytes { keyBytes in
            crypto_aead_xchacha20poly1305_ietf_encrypt(
                message.mutableBytes, nil, UnsafePointer(message.mutableBytes), UInt64(message.count - tagByteCount),
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

    /// Decrypts and authenticates `ciphertext` (ciphertext followed by the tag) into `output`,
    /// which must be exactly `ciphertext.count - tagByteCount` bytes of protected memory: a
    /// journal's records are opened one after the other into one buffer, not into a protected
    /// allocation each (three to four pages and four system calls apiece). On a failed check
    /// libsodium zeroes `output`, so nothing unauthenticated is left in it.
    public static func open(
        _ ciphertext: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer, key: borrowing SecureBytes,
        nonce: UnsafeRawBufferPointer, associatedData: UnsafeRawBufferPointer
    ) throws(VaultCryptoError) {
        try Sodium.ready()
        try check(key: key, nonce: nonce)
        guard ciphertext.count >= tagByteCount else { throw .authenticationFailed }
        guard output.count == ciphertext.count - tagByteCount else {
            throw .invalidInput("AEAD output buffer has the wrong size")
        }
        let status = key.withUnsafeBytes { keyBytes in
            crypto_aead_xchacha20poly1305_ietf_decrypt(
                output.mutableBytes, nil, nil, ciphertext.bytes, UInt64(ciphertext.count),
                associatedData.bytes, UInt64(associatedData.count), nonce.bytes, keyBytes.bytes)
        }
        guard status == 0 else { throw .authenticationFailed }
    }

    /// Decrypts and authenticates in place: `sealed` (ciphertext followed by the tag) has its
    /// first `sealed.count - tagByteCount` bytes replaced by the plaintext. libsodium checks the
    /// tag over the ciphertext before it decrypts, so the output may be the input; on a failed
    /// check it zeroes the output, and nothing unauthenticated is ever left in `sealed`. The
    /// read-back check of a save decrypts the file image this way instead of into a second
    /// buffer of the payload's size (issue 23). `associatedData` must not overlap `sealed`.
    public static func openInPlace(
        _ sealed: UnsafeMutableRawBufferPointer, key: borrowing SecureBytes,
        nonce: UnsafeRawBufferPointer, associatedData: UnsafeRawBufferPointer
    ) throws(VaultCryptoError) {
        try Sodium.ready()
        try check(key: key, nonce: nonce)
        guard sealed.count >= tagByteCount else { throw .authenticationFailed }
        let status = key.withUnsafeBytes { keyBytes in
            crypto_aead_xchacha20poly1305_ietf_decrypt(
                sealed.mutableBytes, nil, nil, UnsafePointer(sealed.mutableBytes), UInt64(sealed.count),
                associatedData.bytes, UInt64(associatedData.count), nonce.bytes, keyBytes.bytes)
        }
        guard status == 0 else { throw .authenticationFailed }
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
