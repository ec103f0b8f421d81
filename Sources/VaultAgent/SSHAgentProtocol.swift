import FoundationEssentials
import SSHKeys
import VaultCrypto
import VaultModel

/// The ssh-agent protocol's messages as pwtui speaks them (draft-miller-ssh-agent), over
/// OpenSSH's encodings (`SSHWire`, in `SSHKeys`). Pure bytes in, bytes out: the socket is
/// `SSHAgentServer`'s.
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
        try SSHWireReader.reading(body, what: "the message", failure: { Malformed(description: $0) }) {
            (reader) throws(Malformed) -> Request in
            let type = try reader.byte()
            switch MessageType(rawValue: type) {
            case .requestIdentities:
                return .requestIdentities
            case .signRequest:
                let blob = Array(try reader.string())
                let data = Array(try reader.string())
                // Flags were added later; a client that sends none asks for none.
                let flags = reader.isAtEnd ? 0 : try reader.uint32()
                return .sign(keyBlob: blob, data: data, flags: flags)
            case .extension:
                guard Array(try reader.string()) == Array(sessionBindExtension.utf8) else {
                    return .unsupported(type: type)
                }
                let hostKey = Array(try reader.string())
                let sessionID = Array(try reader.string())
                let signature = Array(try reader.string())
                let forwarding = try reader.byte()
                guard reader.isAtEnd, forwarding <= 1 else {
                    throw Malformed(description: "a session binding with bytes after its flag, or a flag not 0 or 1")
                }
                return .sessionBind(
                    SessionBind(
                        hostKey: hostKey, sessionID: sessionID, signature: signature, isForwarding: forwarding == 1))
            default:
                return .unsupported(type: type)
            }
        }
    }

    /// A whole message (length included) of `type` with `contents`.
    public static func message(_ type: MessageType, _ contents: [UInt8] = []) -> [UInt8] {
        var message = SSHWire.uint32(UInt32(contents.count + 1))
        message.append(type.rawValue)
        message += contents
        return message
    }

    public static func identitiesAnswer(_ identities: [Identity]) -> [UInt8] {
        var contents = SSHWire.uint32(UInt32(identities.count))
        for identity in identities {
            contents += SSHWire.string(identity.keyBlob)
            contents += SSHWire.string(Array(identity.comment.utf8))
        }
        return message(.identitiesAnswer, contents)
    }

    public static func signResponse(signatureBlob: [UInt8]) -> [UInt8] {
        message(.signResponse, SSHWire.string(signatureBlob))
    }

    public static var failure: [UInt8] { message(.failure) }
}

extension SSHAgentProtocol.Malformed: ExitStatusReporting {
    /// A malformed request from an ssh-agent client (answered SSH_AGENT_FAILURE on its socket).
    public var exitStatus: ExitStatus { .usage }
}
