import FoundationEssentials
import VaultCrypto
import VaultModel

/// The ssh-agent protocol's messages as pwtui speaks them (draft-miller-ssh-agent), and the
/// OpenSSH encodings of Ed25519, RSA and ECDSA P-256 public keys and signatures. Pure bytes in, bytes out: the socket
/// is `SSHAgentServer`'s.
///
/// Every message is `uint32 length, byte type, contents`; a `string` is `uint32 length, bytes`;
/// integers are big-endian. An Ed25519 public key blob is `string "ssh-ed25519", string key(32)`
/// and a signature blob `string "ssh-ed25519", string signature(64)` (RFC 8709).
public enum SSHAgentProtocol {
    /// The longest message read: OpenSSH's own agent refuses more than 256 KiB as well
    /// (AGENT_MAX_LEN); a signature request is a few hundred bytes.
    public static let maximumMessageBytes = 256 * 1024

    public enum MessageType: UInt8, Sendable {
        case failure = 5
        case success = 6
        case requestIdentities = 11
        case identitiesAnswer = 12
        case signRequest = 13
        case signResponse = 14
        /// `ssh-add -x` and `ssh-add -X`: lock and unlock the agent with a password (for pwtui's
        /// agent, the vault's master password unlocks it; any password locks it).
        case lock = 22
        case unlock = 23
        /// `byte 27, string name, …`: an extension; pwtui knows `session-bind@openssh.com`.
        case `extension` = 27
    }

    /// The one extension pwtui's agent takes (OpenSSH's PROTOCOL.agent): the client binds the
    /// connection to the host it has a session with.
    public static let sessionBindExtension = "session-bind@openssh.com"

    /// A `session-bind@openssh.com` message's contents, its signature not yet checked.
    public struct SessionBind: Equatable, Sendable {
        public var hostKey: [UInt8]
        public var sessionID: [UInt8]
        /// The host key's signature blob over `sessionID`.
        public var signature: [UInt8]
        public var isForwarding: Bool

        public init(hostKey: [UInt8], sessionID: [UInt8], signature: [UInt8], isForwarding: Bool) {
            self.hostKey = hostKey
            self.sessionID = sessionID
            self.signature = signature
            self.isForwarding = isForwarding
        }
    }

    /// What a client asked, as far as pwtui answers it.
    public enum Request: Equatable, Sendable {
        case requestIdentities
        /// The key's blob, the data to sign, and the flags (the RSA hash choice; none for Ed25519).
        case sign(keyBlob: [UInt8], data: [UInt8], flags: UInt32)
        case sessionBind(SessionBind)
        /// Anything else (adding or removing keys, locking, extensions): answered with failure.
        case unsupported(type: UInt8)
    }

    /// One key as the agent lists it.
    public struct Identity: Equatable, Sendable {
        public var keyBlob: [UInt8]
        public var comment: String

        public init(keyBlob: [UInt8], comment: String) {
            self.keyBlob = keyBlob
            self.comment = comment
        }
    }

    /// A message's contents that do not parse.
    public struct Malformed: Error, Equatable, CustomStringConvertible {
        public let description: String
    }

    /// The password of a lock or unlock message (`byte type, string password`), copied from the
    /// body into protected memory; nil when the message is no such message or does not parse.
    public static func password(in body: borrowing SecureBytes) -> SecureBytes? {
        body.withUnsafeBytes { bytes -> SecureBytes? in
            guard bytes.count >= 5 else { return nil }
            let length = bytes[1 ..< 5].reduce(0) { $0 << 8 | Int($1) }
            guard length == bytes.count - 5 else { return nil }
            return try? SecureBytes(copying: UnsafeRawBufferPointer(rebasing: bytes[5...]))
        }
    }

    /// The request in a message's body (its type byte and contents, without the length).
    public static func request(_ body: [UInt8]) throws(Malformed) -> Request {
        var reader = Reader(bytes: body[...])
        let type = try reader.byte()
        switch MessageType(rawValue: type) {
        case .requestIdentities:
            return .requestIdentities
        case .signRequest:
            let blob = try reader.string()
            let data = try reader.string()
            // Flags were added later; a client that sends none asks for none.
            let flags = reader.isAtEnd ? 0 : try reader.uint32()
            return .sign(keyBlob: Array(blob), data: Array(data), flags: flags)
        case .extension:
            let name = try reader.string()
            guard Array(name) == Array(sessionBindExtension.utf8) else { return .unsupported(type: type) }
            let hostKey = try reader.string()
            let sessionID = try reader.string()
            let signature = try reader.string()
            let forwarding = try reader.byte()
            guard reader.isAtEnd, forwarding <= 1 else {
                throw Malformed(description: "a session binding with bytes after its flag, or a flag not 0 or 1")
            }
            return .sessionBind(
                SessionBind(
                    hostKey: Array(hostKey), sessionID: Array(sessionID), signature: Array(signature),
                    isForwarding: forwarding == 1))
        default:
            return .unsupported(type: type)
        }
    }

    /// A whole message (length included) of `type` with `contents`.
    public static func message(_ type: MessageType, _ contents: [UInt8] = []) -> [UInt8] {
        var message = uint32(UInt32(contents.count + 1))
        message.append(type.rawValue)
        message += contents
        return message
    }

    public static func identitiesAnswer(_ identities: [Identity]) -> [UInt8] {
        var contents = uint32(UInt32(identities.count))
        for identity in identities {
            contents += string(identity.keyBlob)
            contents += string(Array(identity.comment.utf8))
        }
        return message(.identitiesAnswer, contents)
    }

    public static func signResponse(signatureBlob: [UInt8]) -> [UInt8] {
        message(.signResponse, string(signatureBlob))
    }

    public static var failure: [UInt8] { message(.failure) }

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
        var reader = Reader(bytes: keyBlob[...])
        let type = (try? reader.string()).map { String(decoding: $0, as: UTF8.self) } ?? ""
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

    /// Reads a message's contents front to back, refusing anything that runs past its end.
    struct Reader {
        var bytes: ArraySlice<UInt8>

        var isAtEnd: Bool { bytes.isEmpty }

        mutating func byte() throws(Malformed) -> UInt8 {
            guard let first = bytes.first else { throw Malformed(description: "an empty message") }
            bytes = bytes.dropFirst()
            return first
        }

        mutating func uint32() throws(Malformed) -> UInt32 {
            guard bytes.count >= 4 else { throw Malformed(description: "an integer cut short") }
            let value = UInt32(SSHAgentProtocol.length(bytes.prefix(4)))
            bytes = bytes.dropFirst(4)
            return value
        }

        mutating func string() throws(Malformed) -> ArraySlice<UInt8> {
            let count = Int(try uint32())
            guard bytes.count >= count else { throw Malformed(description: "a string longer than its message") }
            defer { bytes = bytes.dropFirst(count) }
            return bytes.prefix(count)
        }
    }
}

extension SSHAgentProtocol.Malformed: ExitStatusReporting {
    /// A malformed request from an ssh-agent client (answered SSH_AGENT_FAILURE on its socket).
    public var exitStatus: ExitStatus { .usage }
}
