import SSHKeys
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
        self = try SSHWireReader.reading(
            blob, what: "a host key", failure: { SSHAgentProtocol.Malformed(description: $0) }
        ) { (reader) throws(SSHAgentProtocol.Malformed) -> SSHHostKey in
            let key: SSHHostKey
            let type = String(decoding: try reader.string(), as: UTF8.self)
            switch type {
            case SSHWire.ed25519KeyType:
                let publicKey = try reader.string()
                guard publicKey.count == 32 else {
                    throw SSHAgentProtocol.Malformed(description: "an Ed25519 key not 32 bytes")
                }
                key = .ed25519(publicKey: Array(publicKey))
            case SSHWire.rsaKeyType:
                let exponent = try reader.string()
                let modulus = try reader.string()
                key = .rsa(exponent: Self.magnitude(exponent), modulus: Self.magnitude(modulus))
            case SSHWire.ecdsaP256KeyType:
                let curve = try reader.string()
                let point = try reader.string()
                guard Array(curve) == Array(SSHWire.ecdsaP256Curve.utf8), point.count == 65, point.first == 4 else {
                    throw SSHAgentProtocol.Malformed(description: "an ECDSA key not on P-256 or not uncompressed")
                }
                key = .ecdsaP256(point: Array(point))
            default:
                throw SSHAgentProtocol.Malformed(
                    description: "a host key of type \(type.prefix(40)), which pwtui does not check")
            }
            guard reader.isAtEnd else { throw SSHAgentProtocol.Malformed(description: "bytes after a host key") }
            return key
        }
    }

    /// Whether `signatureBlob` (`string algorithm, string signature`) is this key's signature
    /// of `data`. RSA over SHA-1 (`ssh-rsa`) is not accepted, as pwtui's own keys never make it.
    public func verifies(_ signatureBlob: [UInt8], of data: [UInt8]) -> Bool {
        let parts = signatureBlob.withUnsafeBytes { bytes -> (String, [UInt8])? in
            var reader = SSHWireReader(bytes, what: "a signature") { SSHAgentProtocol.Malformed(description: $0) }
            guard let algorithm = try? reader.string(), let signature = try? reader.string(), reader.isAtEnd else {
                return nil
            }
            return (String(decoding: algorithm, as: UTF8.self), Array(signature))
        }
        guard let (algorithm, signature) = parts else { return false }
        return data.withUnsafeBytes { message in
            switch self {
            case .ed25519(let publicKey):
                guard algorithm == SSHWire.ed25519KeyType else { return false }
                return (try? Ed25519.verify(signature, of: message, publicKey: publicKey)) ?? false
            case .rsa(let exponent, let modulus):
                let digest: OpenSSLKey.Digest
                switch algorithm {
                case SSHWire.rsaSHA256Algorithm: digest = .sha256
                case SSHWire.rsaSHA512Algorithm: digest = .sha512
                default: return false
                }
                return OpenSSLKey.verify(
                    signature, of: message, publicKey: .rsa(exponent: exponent, modulus: modulus), digest: digest
                )
            case .ecdsaP256(let point):
                // The signature is `mpint r, mpint s`; OpenSSL's check takes them as 32 bytes each.
                let pair = signature.withUnsafeBytes { bytes -> ([UInt8], [UInt8])? in
                    var reader = SSHWireReader(bytes, what: "an ECDSA signature") {
                        SSHAgentProtocol.Malformed(description: $0)
                    }
                    guard let r = try? reader.string(), let s = try? reader.string(), reader.isAtEnd,
                        let r32 = Self.padded(r), let s32 = Self.padded(s)
                    else { return nil }
                    return (r32, s32)
                }
                guard algorithm == SSHWire.ecdsaP256KeyType, let (r32, s32) = pair else { return false }
                return OpenSSLKey.verify(r32 + s32, of: message, publicKey: .ecdsaP256(point: point), digest: .sha256)
            }
        }
    }

    /// An mpint's magnitude: its sign byte dropped.
    private static func magnitude(_ mpint: UnsafeRawBufferPointer) -> [UInt8] {
        Array(mpint.drop(while: { $0 == 0 }))
    }

    /// A P-256 scalar (an mpint) as exactly 32 big-endian bytes; nil when it is longer.
    private static func padded(_ mpint: UnsafeRawBufferPointer) -> [UInt8]? {
        let magnitude = magnitude(mpint)
        guard magnitude.count <= 32 else { return nil }
        return [UInt8](repeating: 0, count: 32 - magnitude.count) + magnitude
    }
}
