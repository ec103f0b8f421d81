import VaultCrypto
import VaultModel

/// The kinds of SSH key pwtui makes and serves (`ssh generate --type`), and what each does with
/// its private key as `SSHKeyItem` keeps it: an Ed25519 seed (libsodium) or an RSA or ECDSA P-256
/// key's PKCS#8 DER (libcrypto, `OpenSSLKey`). The agent and `generate` both go through here, so
/// the blob a client is offered is the one the key signs for.
public enum SSHKeyType: String, CaseIterable, Sendable {
    case ed25519
    case rsa
    case ecdsa

    /// A new private key of this type, in protected memory: an Ed25519 seed or a PKCS#8 DER key.
    /// `bits` is RSA's size (nil: 3072) and refused for the other types.
    public func newPrivateKey(bits: Int?) throws -> SecureBytes {
        if bits != nil, self != .rsa {
            throw VaultError.invalidRequest("--bits is for RSA keys only; an \(rawValue) key has a fixed size")
        }
        switch self {
        case .ed25519:
            return try Ed25519.newSeed()
        case .rsa:
            let bits = bits ?? OpenSSLKey.defaultRSABits
            guard OpenSSLKey.rsaBits.contains(bits) else {
                throw VaultError.invalidRequest(
                    "an RSA key is \(OpenSSLKey.rsaBits.lowerBound) to \(OpenSSLKey.rsaBits.upperBound) bits "
                        + "(--bits), not \(bits); 3072 if not given")
            }
            return try OpenSSLKey.newRSA(bits: bits)
        case .ecdsa:
            return try OpenSSLKey.newECDSAP256()
        }
    }
}

/// What a private key (as `SSHKeyItem.privateKey` reads it back) offers and signs, in OpenSSH's
/// encodings.
public enum SSHPrivateKey {
    /// The public key blob of `key`: `ssh-ed25519`, `ssh-rsa` or `ecdsa-sha2-nistp256`.
    public static func publicKeyBlob(_ key: borrowing SecureBytes) throws -> [UInt8] {
        if key.count == Ed25519.seedByteCount {
            return SSHWire.ed25519KeyBlob(try Ed25519.publicKey(seed: key))
        }
        switch try OpenSSLKey.publicKey(der: key) {
        case .rsa(let exponent, let modulus):
            return SSHWire.rsaKeyBlob(exponent: exponent, modulus: modulus)
        case .ecdsaP256(let point):
            return SSHWire.ecdsaP256KeyBlob(point: point)
        }
    }

    /// What kind of key `key` is and how many bits: what `pwtui audit` judges an SSH key by (a
    /// private key is not a password; a dictionary estimate of its digits means nothing).
    public static func size(_ key: borrowing SecureBytes) throws -> SSHKeySize {
        if key.count == Ed25519.seedByteCount { return SSHKeySize(type: .ed25519, bits: 256) }
        switch try OpenSSLKey.publicKey(der: key) {
        case .rsa(_, let modulus):
            let significant = modulus.drop { $0 == 0 }
            let leading = significant.first.map { $0.leadingZeroBitCount } ?? 0
            return SSHKeySize(type: .rsa, bits: significant.count * 8 - leading)
        case .ecdsaP256:
            return SSHKeySize(type: .ecdsa, bits: 256)
        }
    }

    /// The signature blob of `data` by `key`. An RSA key signs with `rsa-sha2-256` or `-512` as
    /// the request's flags ask; without either flag it asks for SHA-1 `ssh-rsa`, which is refused
    /// (nil): OpenSSH has not used it by default since 8.8, and a signature over SHA-1 can be forged
    /// for a chosen prefix. Flags mean nothing to the other types.
    public static func signatureBlob(_ key: borrowing SecureBytes, data: [UInt8], flags: UInt32) throws -> [UInt8]? {
        if key.count == Ed25519.seedByteCount {
            return SSHWire.ed25519SignatureBlob(try data.withUnsafeBytes { try Ed25519.sign($0, seed: key) })
        }
        switch try OpenSSLKey.publicKey(der: key) {
        case .rsa:
            guard let algorithm = SSHWire.rsaAlgorithm(flags: flags) else { return nil }
            let digest: OpenSSLKey.Digest = algorithm == SSHWire.rsaSHA256Algorithm ? .sha256 : .sha512
            let signature = try data.withUnsafeBytes { try OpenSSLKey.sign($0, der: key, digest: digest) }
            return SSHWire.rsaSignatureBlob(signature, algorithm: algorithm)
        case .ecdsaP256:
            // RFC 5656 § 6.2.1: nistp256 signs over SHA-256.
            let signature = try data.withUnsafeBytes { try OpenSSLKey.sign($0, der: key, digest: .sha256) }
            return SSHWire.ecdsaP256SignatureBlob(
                r: Array(signature.prefix(32)), s: Array(signature.suffix(32)))
        }
    }
}

/// An SSH key's type and size in bits (an RSA key's modulus; 256 for Ed25519 and P-256).
public struct SSHKeySize: Equatable, Sendable {
    public let type: SSHKeyType
    public let bits: Int

    public init(type: SSHKeyType, bits: Int) {
        self.type = type
        self.bits = bits
    }

    /// RSA under 2048 bits is weak (NIST SP 800-57: 1024-bit RSA fell below 80 bits of security
    /// and was disallowed after 2013); Ed25519 and P-256 offer about 128 bits.
    public static let minimumRSABits = 2048

    public var isWeak: Bool { type == .rsa && bits < Self.minimumRSABits }
}
