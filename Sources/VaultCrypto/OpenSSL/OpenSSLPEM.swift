internal import COpenSSL

/// PEM private key files read by OpenSSL (`ssh import`): PKCS#1 `RSA PRIVATE KEY` (plain, or
/// encrypted the old way with `Proc-Type`/`DEK-Info`), `EC PRIVATE KEY`, PKCS#8 `PRIVATE KEY` and
/// `ENCRYPTED PRIVATE KEY`. The file's bytes and the passphrase are read where they are (the
/// caller's protected memory); the key comes back as pwtui keeps it, in protected memory.
public enum OpenSSLPEM {
    /// What a PEM file held.
    public enum Outcome: ~Copyable {
        /// An RSA key's PKCS#8 DER, and its size.
        case rsa(SecureBytes, bits: Int)
        /// A P-256 key's PKCS#8 DER.
        case ecdsaP256(SecureBytes)
        /// An Ed25519 key's 32-byte seed.
        case ed25519(SecureBytes)
        /// Encrypted, and no passphrase was given: ask, and read again.
        case needsPassphrase
        /// Encrypted, and the passphrase given does not decrypt it.
        case wrongPassphrase
        /// A DSA key.
        case dsa
        /// An EC key on another curve, of `bits` bits (P-384, P-521).
        case otherCurve(bits: Int)
        /// A key of another type (X25519, Ed448, …).
        case otherType
        /// Not a private key OpenSSL can read.
        case unreadable
        /// An RSA or P-256 key whose numbers do not make one key (OpenSSL's pairwise check).
        case inconsistent

        /// Whether to ask for the passphrase and read again.
        public var needsPassphrase: Bool {
            switch self {
            case .needsPassphrase: true
            default: false
            }
        }
    }

    private static let capacity = 8 * 1024

    /// Reads `pem`, decrypting with `passphrase` when given and needed.
    public static func read(_ pem: UnsafeRawBufferPointer, passphrase: UnsafeRawBufferPointer?)
        throws(VaultCryptoError) -> Outcome
    {
        var key = try SecureBytes(zeros: capacity)
        var written = 0
        var bits: Int32 = 0
        let code = key.withUnsafeMutableBytes { out in
            pwtui_ssl_read_pem(
                pem.bytes, pem.count, passphrase?.bytes ?? pem.bytes, passphrase?.count ?? 0, passphrase == nil ? 0 : 1,
                out.mutableBytes, out.count, &written, &bits)
        }
        key.removeLast(capacity - min(written, capacity))
        switch Int(code) {
        case PWTUI_PEM_RSA: return .rsa(key, bits: Int(bits))
        case PWTUI_PEM_P256: return .ecdsaP256(key)
        case PWTUI_PEM_ED25519: return .ed25519(key)
        case PWTUI_PEM_NEEDS_PASSPHRASE: return .needsPassphrase
        case PWTUI_PEM_WRONG_PASSPHRASE: return .wrongPassphrase
        case PWTUI_PEM_DSA: return .dsa
        case PWTUI_PEM_EC_OTHER_CURVE: return .otherCurve(bits: Int(bits))
        case PWTUI_PEM_OTHER_TYPE: return .otherType
        case PWTUI_PEM_INCONSISTENT: return .inconsistent
        default: return .unreadable
        }
    }
}
