import FoundationEssentials

/// OpenSSH's wire encoding (RFC 4251 § 5: uint32, string, mpint) and its public key and
/// signature blobs for the types pwtui keeps: Ed25519 (RFC 8709), RSA (RFC 4253 § 6.6, RFC
/// 8332) and ECDSA P-256 (RFC 5656). One place for what a key file, the ssh-agent protocol, an
/// `authorized_keys` line and a host key binding all write; `SSHWireReader` reads it back.
public enum SSHWire {
    // MARK: Ed25519 in OpenSSH's encodings

    public static let ed25519KeyType = "ssh-ed25519"

    /// `string "ssh-ed25519", string publicKey`.
    public static func ed25519KeyBlob(_ publicKey: [UInt8]) -> [UInt8] {
        string(Array(ed25519KeyType.utf8)) + string(publicKey)
    }

    /// `string "ssh-ed25519", string signature`.
    public static func ed25519SignatureBlob(_ signature: [UInt8]) -> [UInt8] {
        string(Array(ed25519KeyType.utf8)) + string(signature)
    }

    /// The public key as one `authorized_keys` line, without its newline: `ssh-ed25519 AAAA…
    /// comment`. The comment's whitespace runs become one space, so the line stays one line of
    /// three parts.
    public static func authorizedKeysLine(ed25519PublicKey publicKey: [UInt8], comment: String) -> String {
        authorizedKeysLine(keyBlob: ed25519KeyBlob(publicKey), comment: comment)
    }

    /// Any key blob as one `authorized_keys` line: its type (the blob's first string), the blob
    /// in base64, the comment.
    public static func authorizedKeysLine(keyBlob: [UInt8], comment: String) -> String {
        let type = keyBlob.withUnsafeBytes { bytes in
            var reader = SSHWireReader(bytes, what: "a key blob")
            return (try? reader.string()).map { String(decoding: $0, as: UTF8.self) } ?? ""
        }
        let words = comment.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
        let encoded = Data(keyBlob).base64EncodedString()
        return words.isEmpty ? "\(type) \(encoded)" : "\(type) \(encoded) \(words)"
    }

    // MARK: RSA (RFC 4253 § 6.6, RFC 8332) and ECDSA P-256 (RFC 5656)

    public static let rsaKeyType = "ssh-rsa"
    public static let rsaSHA256Algorithm = "rsa-sha2-256"
    public static let rsaSHA512Algorithm = "rsa-sha2-512"
    public static let ecdsaP256KeyType = "ecdsa-sha2-nistp256"
    public static let ecdsaP256Curve = "nistp256"

    /// The sign request's flags (draft-miller-ssh-agent § 4.5.1): which hash an RSA signature uses.
    /// Neither means `ssh-rsa`, SHA-1, which pwtui refuses (OpenSSH itself has not offered it by
    /// default since 8.8).
    public static let rsaSHA256Flag: UInt32 = 2
    public static let rsaSHA512Flag: UInt32 = 4

    /// The RSA signature algorithm a sign request's flags ask for, as OpenSSH's agent reads them
    /// (SHA-256 wins when both are set); nil for neither, the SHA-1 `ssh-rsa`.
    public static func rsaAlgorithm(flags: UInt32) -> String? {
        if flags & rsaSHA256Flag != 0 { return rsaSHA256Algorithm }
        if flags & rsaSHA512Flag != 0 { return rsaSHA512Algorithm }
        return nil
    }

    /// `string "ssh-rsa", mpint e, mpint n`.
    public static func rsaKeyBlob(exponent: [UInt8], modulus: [UInt8]) -> [UInt8] {
        string(Array(rsaKeyType.utf8)) + mpint(exponent) + mpint(modulus)
    }

    /// `string algorithm, string signature` (the signature as long as the modulus, RFC 8332).
    public static func rsaSignatureBlob(_ signature: [UInt8], algorithm: String) -> [UInt8] {
        string(Array(algorithm.utf8)) + string(signature)
    }

    /// `string "ecdsa-sha2-nistp256", string "nistp256", string Q` (Q the uncompressed point).
    public static func ecdsaP256KeyBlob(point: [UInt8]) -> [UInt8] {
        string(Array(ecdsaP256KeyType.utf8)) + string(Array(ecdsaP256Curve.utf8)) + string(point)
    }

    /// `string "ecdsa-sha2-nistp256", string (mpint r, mpint s)`.
    public static func ecdsaP256SignatureBlob(r: [UInt8], s: [UInt8]) -> [UInt8] {
        string(Array(ecdsaP256KeyType.utf8)) + string(mpint(r) + mpint(s))
    }

    // MARK: Encoding

    public static func uint32(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    public static func string(_ bytes: [UInt8]) -> [UInt8] {
        uint32(UInt32(bytes.count)) + bytes
    }

    /// A non-negative integer from its big-endian magnitude (RFC 4251 § 5): leading zeros dropped,
    /// and one zero byte put back in front when the first bit is set, so it does not read as negative.
    public static func mpint(_ magnitude: [UInt8]) -> [UInt8] {
        var bytes = Array(magnitude.drop(while: { $0 == 0 }))
        if let first = bytes.first, first & 0x80 != 0 { bytes.insert(0, at: 0) }
        return string(bytes)
    }

    /// The big-endian length at the start of `header` (4 bytes).
    public static func length(_ header: some Collection<UInt8>) -> Int {
        header.reduce(0) { $0 << 8 | Int($1) }
    }
}
