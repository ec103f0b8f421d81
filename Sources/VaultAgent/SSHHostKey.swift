import VaultCrypto

/// An SSH server's public host key, as a client names it when it binds its connection to the
/// agent (`session-bind@openssh.com`), and the check that the key signed what the client says
/// it did: the session's identifier. The agent trusts a binding only when that signature holds,
/// so a client (or a host it forwards the agent to) cannot claim a destination whose host key
/// it does not hold a session with.
///
/// Ed25519 (RFC 8709), ECDSA P-256 (RFC 5656) and RSA with SHA-2 (RFC 8332) host keys: the ones
/// OpenSSH's sshd makes by default. Any other type is `unsupported`, and the binding is refused;
/// ssh then goes on unbound, and the agent offers its keys as to a client that never binds.
public enum SSHHostKey: Equatable, Sendable {
    case ed25519(publicKey: [UInt8])
    case rsa(exponent: [UInt8], modulus: [UInt8])
    case ecdsaP256(point: [UInt8])

    /// The key in a public key blob (`string type, …`).
    public init(blob: [UInt8]) throws(SSHAgentProtocol.Malformed) {
        var reader = SSHAgentProtocol.Reader(bytes: blob[...])
        let type = String(decoding: try reader.string(), as: UTF8.self)
        switch type {
        case SSHAgentProtocol.ed25519KeyType:
            let key = try reader.string()
            guard key.count == 32 else { throw SSHAgentProtocol.Malformed(description: "an Ed25519 key not 32 bytes") }
            self = .ed25519(publicKey: Array(key))
        case SSHAgentProtocol.rsaKeyType:
            let exponent = try reader.string()
            let modulus = try reader.string()
            self = .rsa(exponent: Self.magnitude(exponent), modulus: Self.magnitude(modulus))
        case SSHAgentProtocol.ecdsaP256KeyType:
            let curve = try reader.string()
            let point = try reader.string()
            guard Array(curve) == Array(SSHAgentProtocol.ecdsaP256Curve.utf8), point.count == 65, point.first == 4
            else {
                throw SSHAgentProtocol.Malformed(description: "an ECDSA key not on P-256 or not uncompressed")
            }
            self = .ecdsaP256(point: Array(point))
        default:
            throw SSHAgentProtocol.Malformed(
                description: "a host key of type \(type.prefix(40)), which pwtui does not check")
        }
        guard reader.isAtEnd else { throw SSHAgentProtocol.Malformed(description: "bytes after a host key") }
    }

    /// Whether `signatureBlob` (`string algorithm, string signature`) is this key's signature
    /// of `data`. RSA over SHA-1 (`ssh-rsa`) is not accepted, as pwtui's own keys never make it.
    public func verifies(_ signatureBlob: [UInt8], of data: [UInt8]) -> Bool {
        var reader = SSHAgentProtocol.Reader(bytes: signatureBlob[...])
        guard let algorithmBytes = try? reader.string(), let signature = try? reader.string(), reader.isAtEnd else {
            return false
        }
        let algorithm = String(decoding: algorithmBytes, as: UTF8.self)
        return data.withUnsafeBytes { message in
            switch self {
            case .ed25519(let publicKey):
                guard algorithm == SSHAgentProtocol.ed25519KeyType else { return false }
                return (try? Ed25519.verify(Array(signature), of: message, publicKey: publicKey)) ?? false
            case .rsa(let exponent, let modulus):
                let digest: OpenSSLKey.Digest
                switch algorithm {
                case SSHAgentProtocol.rsaSHA256Algorithm: digest = .sha256
                case SSHAgentProtocol.rsaSHA512Algorithm: digest = .sha512
                default: return false
                }
                return OpenSSLKey.verify(
                    Array(signature), of: message, publicKey: .rsa(exponent: exponent, modulus: modulus), digest: digest
                )
            case .ecdsaP256(let point):
                // The signature is `mpint r, mpint s`; OpenSSL's check takes them as 32 bytes each.
                var pair = SSHAgentProtocol.Reader(bytes: signature)
                guard algorithm == SSHAgentProtocol.ecdsaP256KeyType, let r = try? pair.string(),
                    let s = try? pair.string(), pair.isAtEnd, let r32 = Self.padded(r), let s32 = Self.padded(s)
                else { return false }
                return OpenSSLKey.verify(r32 + s32, of: message, publicKey: .ecdsaP256(point: point), digest: .sha256)
            }
        }
    }

    /// An mpint's magnitude: its sign byte dropped.
    private static func magnitude(_ mpint: ArraySlice<UInt8>) -> [UInt8] {
        Array(mpint.drop(while: { $0 == 0 }))
    }

    /// A P-256 scalar (an mpint) as exactly 32 big-endian bytes; nil when it is longer.
    private static func padded(_ mpint: ArraySlice<UInt8>) -> [UInt8]? {
        let magnitude = magnitude(mpint)
        guard magnitude.count <= 32 else { return nil }
        return [UInt8](repeating: 0, count: 32 - magnitude.count) + magnitude
    }
}
