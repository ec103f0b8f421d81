internal import COpenSSL

/// RSA and ECDSA P-256 keys through libcrypto (OpenSSL 3), for SSH keys of those types (issue 27).
/// A private key is kept as its PKCS#8 DER in protected memory (`SecureBytes`): OpenSSL sees it
/// only inside one shim function (`Sources/COpenSSL/shim.h`), which makes its own object of it for
/// that one operation and frees it (cleansed) before returning. Public keys and signatures are not
/// secret: they come back as ordinary arrays.
public enum OpenSSLKey {
    /// The RSA sizes pwtui makes: below 2048 is refused by OpenSSH's own policy, above 8192 takes
    /// minutes to make and OpenSSH's agent refuses beyond 16384 anyway.
    public static let rsaBits = 2048 ... 8192
    public static let defaultRSABits = 3072

    public enum Kind: Equatable, Sendable {
        case rsa
        case ecdsaP256
    }

    /// The hash a signature is made over.
    public enum Digest: Int32, Sendable {
        case sha1 = 1
        case sha256 = 256
        case sha512 = 512
    }

    /// A key's public half: RSA's exponent and modulus (big-endian magnitudes, no leading zero), or
    /// P-256's uncompressed point (65 bytes, `04 x y`).
    public enum PublicKey: Equatable, Sendable {
        case rsa(exponent: [UInt8], modulus: [UInt8])
        case ecdsaP256(point: [UInt8])
    }

    /// Room for any key pwtui makes: an 8192-bit RSA key's PKCS#8 DER is about 4.8 KB.
    private static let derCapacity = 8 * 1024
    /// An 8192-bit modulus or signature is 1024 bytes.
    private static let numberCapacity = 1024

    /// A new RSA key of `bits` bits (in `rsaBits`; exponent 65537), as PKCS#8 DER in protected memory.
    public static func newRSA(bits: Int) throws(VaultCryptoError) -> SecureBytes {
        guard rsaBits.contains(bits) else {
            throw .invalidInput("an RSA key is \(rsaBits.lowerBound) to \(rsaBits.upperBound) bits, not \(bits)")
        }
        return try generated { out in pwtui_ssl_generate_rsa(UInt32(bits), out.mutableBytes, out.count) }
    }

    /// A new ECDSA key on NIST P-256, as PKCS#8 DER in protected memory.
    public static func newECDSAP256() throws(VaultCryptoError) -> SecureBytes {
        try generated { out in pwtui_ssl_generate_p256(out.mutableBytes, out.count) }
    }

    /// The public half of the key whose PKCS#8 DER is `der`; `invalidInput` for anything that is
    /// not an RSA or P-256 key.
    public static func publicKey(der: borrowing SecureBytes) throws(VaultCryptoError) -> PublicKey {
        var first = [UInt8](repeating: 0, count: numberCapacity)
        var second = [UInt8](repeating: 0, count: numberCapacity)
        var firstLength = 0
        var secondLength = 0
        let type = der.withUnsafeBytes { key in
            first.withUnsafeMutableBufferPointer { first in
                second.withUnsafeMutableBufferPointer { second in
                    pwtui_ssl_public_key(
                        key.bytes, key.count, first.mutableBytes, first.count, &firstLength, second.mutableBytes,
                        second.count, &secondLength)
                }
            }
        }
        switch Int(type) {
        case PWTUI_SSL_KEY_RSA:
            return .rsa(exponent: Array(first.prefix(firstLength)), modulus: Array(second.prefix(secondLength)))
        case PWTUI_SSL_KEY_P256 where firstLength == 65 && first[0] == 4:
            return .ecdsaP256(point: Array(first.prefix(firstLength)))
        default:
            throw .invalidInput("not an RSA or ECDSA P-256 private key (PKCS#8 DER)")
        }
    }

    /// The signature of `message` by the key `der` over `digest`: RSA's PKCS#1 v1.5 signature, or
    /// ECDSA's r and s, 32 big-endian bytes each (r then s).
    public static func sign(_ message: UnsafeRawBufferPointer, der: borrowing SecureBytes, digest: Digest)
        throws(VaultCryptoError) -> [UInt8]
    {
        var signature = [UInt8](repeating: 0, count: numberCapacity)
        let length = der.withUnsafeBytes { key in
            signature.withUnsafeMutableBufferPointer { out in
                pwtui_ssl_sign(
                    key.bytes, key.count, digest.rawValue, message.bytes, message.count, out.mutableBytes, out.count)
            }
        }
        guard length > 0 else { throw .invalidInput("OpenSSL could not sign with this key") }
        return Array(signature.prefix(length))
    }

    /// Whether `signature` (as `sign` makes it) is the key's signature of `message`, by OpenSSL's
    /// own verification (for tests and checks; the agent only signs).
    public static func verify(
        _ signature: [UInt8], of message: UnsafeRawBufferPointer, der: borrowing SecureBytes, digest: Digest
    ) -> Bool {
        der.withUnsafeBytes { key in
            signature.withUnsafeBufferPointer { signature in
                pwtui_ssl_verify(
                    key.bytes, key.count, digest.rawValue, message.bytes, message.count, signature.bytes,
                    signature.count) == 1
            }
        }
    }

    /// Whether `signature` (RSA's raw signature, or ECDSA's r and s of 32 bytes each) is the
    /// signature of `message` by `publicKey`: another's key, such as an SSH server's host key.
    public static func verify(
        _ signature: [UInt8], of message: UnsafeRawBufferPointer, publicKey: PublicKey, digest: Digest
    ) -> Bool {
        let (type, first, second): (Int32, [UInt8], [UInt8])
        switch publicKey {
        case .rsa(let exponent, let modulus): (type, first, second) = (Int32(PWTUI_SSL_KEY_RSA), exponent, modulus)
        case .ecdsaP256(let point): (type, first, second) = (Int32(PWTUI_SSL_KEY_P256), point, [])
        }
        return first.withUnsafeBufferPointer { first in
            second.withUnsafeBufferPointer { second in
                signature.withUnsafeBufferPointer { signature in
                    pwtui_ssl_verify_public(
                        type, first.bytes, first.count, second.bytes, second.count, digest.rawValue, message.bytes,
                        message.count, signature.bytes, signature.count) == 1
                }
            }
        }
    }

    /// A key made by `make` into a protected buffer, cut to the length it returns.
    private static func generated(_ make: (UnsafeMutableRawBufferPointer) -> Int) throws(VaultCryptoError)
        -> SecureBytes
    {
        var der = try SecureBytes(zeros: derCapacity)
        let length = der.withUnsafeMutableBytes { make($0) }
        guard length > 0, length <= derCapacity else { throw .invalidInput("OpenSSL could not make the key") }
        der.removeLast(derCapacity - length)
        return der
    }
}
