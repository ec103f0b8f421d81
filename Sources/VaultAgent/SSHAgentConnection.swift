import SSHKeys
import Platform

/// What the agent knows of one connection to its ssh-agent socket: who is asking (the peer's pid,
/// from the kernel) and where the client says it is connected, learned from its
/// `session-bind@openssh.com` messages.
///
/// OpenSSH's ssh (8.9 and later) binds each agent connection it opens, after its key exchange and
/// before it asks for keys: it sends the server's host key, the session's identifier and the host
/// key's signature over that identifier. The agent checks the signature (`SSHHostKey`), so the
/// binding is as good as the session itself. With agent forwarding, the connection a remote ssh
/// opens through the forwarded socket carries a chain: first the local ssh's binding of the hop
/// it forwards over (`isForwarding`), then the remote ssh's own. The last binding is the
/// destination; the ones before it are the way there.
///
/// As OpenSSH's own agent does, a connection takes no more bindings once one was not for
/// forwarding (a client cannot re-point a connection it has authenticated over), and at most
/// `maximumBindings`.
public struct SSHAgentConnection: Sendable {
    /// One `session-bind@openssh.com` that was checked.
    public struct Binding: Equatable, Sendable {
        public let hostKey: [UInt8]
        public let sessionID: [UInt8]
        public let isForwarding: Bool

        public init(hostKey: [UInt8], sessionID: [UInt8], isForwarding: Bool) {
            self.hostKey = hostKey
            self.sessionID = sessionID
            self.isForwarding = isForwarding
        }
    }

    public static let maximumBindings = 16

    /// The process that connected (SO_PEERCRED's pid), as it was when the connection was
    /// accepted; nil when the kernel did not say. Each request checks it has not changed since.
    public let peer: PeerProcess?
    public private(set) var bindings: [Binding] = []

    public init(peer: PeerProcess?, bindings: [Binding] = []) {
        self.peer = peer
        self.bindings = bindings
    }

    /// The host the client is authenticating to: the last binding; nil for a client that has not
    /// bound the connection (ssh-add, ssh-keygen -Y sign, an older ssh).
    public var destination: Binding? { bindings.last }

    /// Records `binding` (its signature already checked); false when the connection takes no more.
    /// The same binding again is accepted and not recorded twice.
    public mutating func bind(_ binding: Binding) -> Bool {
        if let last = bindings.last {
            if last == binding { return true }
            guard last.isForwarding, bindings.count < Self.maximumBindings else { return false }
        }
        bindings.append(binding)
        return true
    }

    /// Whether `data`, which a client asks to have signed on this connection, may be: on a bound
    /// connection, a user-authentication request (RFC 4252 § 7: `string session identifier, byte
    /// 50, string user, string service, string method, …`) must be for the bound session, and
    /// OpenSSH's `publickey-hostbound-v00@openssh.com` request must name the bound host key.
    /// Without that check, a host the agent is forwarded to could have a key bound to another
    /// host sign in to that one with a session of its own. Data that is no authentication request
    /// (an `ssh-keygen -Y` signature) is not a login and is not held to a session.
    public func allowsSigning(_ data: [UInt8]) -> Bool {
        guard let destination else { return true }
        return data.withUnsafeBytes { bytes in
            var reader = SSHWireReader(bytes, what: "the data to sign") { SSHAgentProtocol.Malformed(description: $0) }
            guard let session = try? reader.string(), let type = try? reader.byte(), type == 50 else { return true }
            guard Array(session) == destination.sessionID else { return false }
            guard (try? reader.string()) != nil, (try? reader.string()) != nil, let method = try? reader.string(),
                Array(method) == Array(Self.hostBoundMethod.utf8)
            else { return true }
            // bool, string algorithm, string public key, string host key.
            guard (try? reader.byte()) != nil, (try? reader.string()) != nil, (try? reader.string()) != nil,
                let hostKey = try? reader.string()
            else { return false }
            return Array(hostKey) == destination.hostKey
        }
    }

    /// The authentication method whose request also names the server's host key (OpenSSH 8.9).
    static let hostBoundMethod = "publickey-hostbound-v00@openssh.com"
}
