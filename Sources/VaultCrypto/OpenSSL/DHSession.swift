internal import COpenSSL

/// The Secret Service's encrypted session, `dh-ietf1024-sha256-aes128-cbc-pkcs7`, exactly as
/// libsecret does it (libsecret/secret-session.c, egg/egg-dh.c, egg/egg-hkdf.c), so that
/// libsecret, Python's secretstorage and every other client get their secrets back.
///
/// The algorithm, in the order it runs:
///
/// 1. Each side picks a private exponent x (here 128 random bytes, as libsecret draws as many
///    bits as the prime has) and sends 2^x mod p, p being RFC 2409's 1024-bit MODP prime ("Oakley
///    group 2"; OpenSSL's `BN_get_rfc2409_prime_1024`), as a big-endian number of whatever length
///    it has (libsecret and gnome-keyring write them minimal, and read any).
/// 2. Both compute the shared secret peer^x mod p and write it big-endian, **left-padded with
///    zeros to 128 bytes**, the prime's size. A secret whose first byte is zero (one session in
///    256) is otherwise one byte short, and the two sides derive different keys: the bug that
///    broke pass-secret-service (#23) and docker's secrets engine now and then.
/// 3. HKDF-SHA256 (RFC 5869) of those 128 bytes, with no salt (HashLen zero bytes) and no info,
///    to 16 bytes: the AES-128 key.
/// 4. A secret travels as AES-128-CBC of the secret padded with PKCS#7 — always 1 to 16 bytes
///    of padding, each equal to their count, so a secret whose length is a multiple of 16 gets
///    a whole block of 16s — under a fresh random 16-byte IV, which is the `Secret`'s
///    `parameters`. Decryption refuses a value that is empty or not whole blocks, an IV that is
///    not 16 bytes, and padding that is not 1…16 equal bytes.
///
/// A peer's public key outside [2, p-2] is refused (0, 1 and p-1 give a secret anyone knows).
/// The private exponent and the key live in protected memory; the shared secret never leaves
/// OpenSSL's secure big numbers and a cleansed stack buffer inside one shim call.
public struct DHSession: ~Copyable {
    /// The algorithm's name in `OpenSession`.
    public static let algorithm = "dh-ietf1024-sha256-aes128-cbc-pkcs7"
    public static let ivSize = 16
    static let keySize = 16

    /// This side's half before the other's is known: the public key to send, and the exponent.
    public struct KeyPair: ~Copyable {
        /// 2^x mod p, big-endian, minimal: what OpenSession sends (or answers).
        public let publicKey: [UInt8]
        private let exponent: SecureBytes

        /// A new private exponent (128 random bytes) and its public key.
        public init() throws(VaultCryptoError) {
            try self.init(exponent: SecureBytes.random(count: 128))
        }

        /// The key pair of a given exponent (1…128 bytes, big-endian): for tests against another
        /// implementation.
        init(exponent: consuming SecureBytes) throws(VaultCryptoError) {
            var publicKey = [UInt8](repeating: 0, count: 128)
            let length = exponent.withUnsafeBytes { x in
                publicKey.withUnsafeMutableBytes { out in pwtui_ssl_dh1024_public(x.bytes, x.count, out.mutableBytes) }
            }
            guard length > 0 else { throw .invalidInput("Diffie-Hellman: the public key could not be made") }
            self.publicKey = Array(publicKey.prefix(length))
            self.exponent = exponent
        }

        /// The session with the peer whose public key is `peer` (big-endian, any length up to
        /// 512 bytes); the exponent ends here.
        public consuming func session(withPeer peer: [UInt8]) throws(VaultCryptoError) -> DHSession {
            var key = try SecureBytes(zeros: DHSession.keySize)
            let status = exponent.withUnsafeBytes { x in
                peer.withUnsafeBytes { peer in
                    key.withUnsafeMutableBytes { key in
                        pwtui_ssl_dh1024_session_key(x.bytes, x.count, peer.bytes, peer.count, key.mutableBytes)
                    }
                }
            }
            guard status == 1 else {
                throw .invalidInput(
                    "Diffie-Hellman: the other side's public key is not a valid one (1…1024 bits, 2…p-2)")
            }
            return DHSession(key: key)
        }
    }

    private let key: SecureBytes

    private init(key: consuming SecureBytes) {
        self.key = key
    }

    /// `secret` encrypted for the other side: the IV (the `Secret`'s parameters, 16 random bytes)
    /// and the ciphertext (the `Secret`'s value). Neither is secret.
    public func encrypt(_ secret: UnsafeRawBufferPointer) throws(VaultCryptoError) -> (
        parameters: [UInt8], value: [UInt8]
    ) {
        try encrypt(secret, iv: RandomBytes.make(Self.ivSize))
    }

    /// `encrypt` with a given IV: for known-answer tests.
    func encrypt(_ secret: UnsafeRawBufferPointer, iv: [UInt8]) throws(VaultCryptoError) -> (
        parameters: [UInt8], value: [UInt8]
    ) {
        guard iv.count == Self.ivSize else { throw .invalidInput("an AES-CBC IV is 16 bytes") }
        // PKCS#7: 1…16 bytes, each their count; a whole block when the secret fills its last one.
        let padding = 16 - secret.count % 16
        var padded = try SecureBytes(capacity: secret.count + padding)
        try padded.append(contentsOf: secret)
        for _ in 0 ..< padding { try padded.append(UInt8(padding)) }
        var value = [UInt8](repeating: 0, count: padded.count)
        let status = key.withUnsafeBytes { key in
            padded.withUnsafeBytes { plain in
                value.withUnsafeMutableBytes { out in
                    iv.withUnsafeBytes { iv in
                        pwtui_ssl_encrypt_aes128_cbc(key.bytes, iv.bytes, plain.bytes, plain.count, out.mutableBytes)
                    }
                }
            }
        }
        guard status == 1 else { throw .invalidInput("AES-128-CBC encryption failed") }
        return (iv, value)
    }

    /// The secret the other side encrypted, in protected memory. `authenticationFailed` when the
    /// padding is not PKCS#7's (a wrong key, or a client that pads otherwise); `invalidInput` for
    /// an IV or a value of the wrong size.
    public func decrypt(parameters: [UInt8], value: [UInt8]) throws(VaultCryptoError) -> SecureBytes {
        guard parameters.count == Self.ivSize else {
            throw .invalidInput("the secret's parameters must be the 16-byte AES IV, not \(parameters.count) bytes")
        }
        guard !value.isEmpty, value.count % 16 == 0 else {
            throw .invalidInput("an AES-128-CBC value is whole 16-byte blocks, not \(value.count) bytes")
        }
        var plain = try SecureBytes(zeros: value.count)
        try narrowingErrors {
            try key.withUnsafeBytes { key in
                try value.withUnsafeBytes { value in
                    try parameters.withUnsafeBytes { iv in
                        try plain.withUnsafeMutableBytes { out in
                            try AESDecryption.decrypt(value, into: out, mode: .cbc, key: key, iv: iv)
                        }
                    }
                }
            }
        }
        // Every padding byte is checked, without an early exit on the first wrong one.
        let padding = plain.withUnsafeBytes { bytes -> Int? in
            let count = Int(bytes[bytes.count - 1])
            guard (1 ... 16).contains(count) else { return nil }
            var difference: UInt8 = 0
            for byte in bytes[(bytes.count - count)...] { difference |= byte ^ UInt8(count) }
            return difference == 0 ? count : nil
        }
        guard let padding else { throw .authenticationFailed }
        plain.removeLast(padding)
        return plain
    }
}
