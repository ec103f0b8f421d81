import SSHKeys
import Platform
import VaultCrypto

// The ssh-agent protocol, and what pwtui's agent does with it
// ===========================================================
//
// OpenSSH's `ssh`, `ssh-add` and `ssh-keygen -Y sign` talk to an agent over the Unix socket that
// `SSH_AUTH_SOCK` (or `IdentityAgent` in ssh_config) names, in the protocol of
// draft-miller-ssh-agent: a connection carries any number of messages, each `uint32 length`
// then `byte type` and its contents, every one answered in order. A client asks for the list of
// identities (11, answered with 12: each key's public blob and a comment), then for a signature
// by one of them over data it sends (13, answered with 14: the signature blob). That is all an
// ssh login needs: the private key never leaves the agent, and the client never learns more
// than a signature over the session it is authenticating.
//
// pwtui's agent answers those, the agent's lock and unlock (22, 23), and one extension (27):
// `session-bind@openssh.com`, by which ssh tells the agent which host the connection is
// authenticating to (`SSHAgentConnection`), so that keys bound to a host are offered to it first
// and to no other host. Every other message — a client adding or removing keys (`ssh-add FILE`,
// `ssh-add -D`), other extensions — gets SSH_AGENT_FAILURE (5), which every client takes as "not
// supported". The keys are the vault's, changed only through pwtui; the agent's lock is pwtui's.
// A message of another type is read into protected memory and never looked at beyond its type:
// `ssh-add FILE` sends a private key in it.
//
// Limits, as for pwtui's own socket (`AgentServer`): the socket is 0600 in the runtime
// directory's 0700, and a peer of another uid is cut off before anything is read. Each
// connection is served on a thread of its own, at most `maximumConnections` at once, so a silent
// client holds up nobody; one more evicts the connection that has waited longest between
// messages (as pwtui's own socket evicts one that has not sent its request), so that idle
// connections never shut every client out; with none idle, it is closed. A connection may wait `idleTimeout`
// between messages; once a message has begun it must arrive whole within `messageTimeout`, or
// the connection is closed (a client that never finishes). A message longer than 256 KiB, of
// length zero, or cut short by the client closing, is refused by closing the connection: after
// a framing error nothing later on it can be trusted to start where a message starts.
//
// The work — which keys, which signature — is the handler's (`SSHAgentHandler`), which takes the
// same turns as for pwtui's own requests, so a signature never races an unlock or a save, and
// leaves them while a person is asked to approve one (a minute at most), so nobody else waits on
// the user. A binding's signature is checked here, before the handler hears of it; a binding
// that does not verify is refused, and the connection stays as it was.

/// What the ssh-agent socket asks of pwtui's agent. Called for several connections at once: the
/// handler takes its own turns.
public protocol SSHAgentHandler: AnyObject, Sendable {
    /// The keys to offer on `connection` (its peer, the host it is bound to), in order; while
    /// locked, only what can be listed without the vault (pwtui's: the identity store's).
    func sshIdentities(for connection: SSHAgentConnection) -> [SSHAgentProtocol.Identity]
    /// The signature blob of `data` by the key whose public blob is `keyBlob`; nil to refuse
    /// (locked, no such key, a key that cannot sign for this peer or destination). May ask the
    /// user first, without holding up anybody else's request meanwhile.
    func sshSign(keyBlob: [UInt8], data: [UInt8], flags: UInt32, for connection: SSHAgentConnection) -> [UInt8]?
    /// `ssh-add -x`: lock (the vault is dropped, as `pwtui agent lock` drops it).
    func sshLock()
    /// `ssh-add -X`: unlock with `password`, the vault's master password; false when it is wrong.
    func sshUnlock(password: consuming SecureBytes) -> Bool
}

/// `pwtui agent`'s second socket: OpenSSH's clients served from the vault (see above).
public final class SSHAgentServer: @unchecked Sendable {
    public static let maximumConnections = 32

    public let socketPath: String
    private let handler: any SSHAgentHandler
    private let messageTimeout: Duration
    private let idleTimeout: Duration
    /// The open connections, for the cap; guarded by `registry`, which a thread takes to remove
    /// its connection before closing the descriptor, so an eviction never hits a reused one.
    private struct OpenConnection {
        let descriptor: FileDescriptor
        /// Since when it has waited for its next message (or was accepted).
        var since: ContinuousClock.Instant
        /// Between messages: nothing of a message read and no answer being made.
        var waiting = true
    }
    private let registry = Lock()
    private var open: [FileDescriptor: OpenConnection] = [:]
    /// The socket this server made (device and inode), so that it never removes another's: an
    /// agent started right after this one stopped listens at the same path.
    private var listening: (device: UInt64, inode: UInt64)?

    public init(
        socketPath: String, handler: any SSHAgentHandler, messageTimeout: Duration = .seconds(5),
        idleTimeout: Duration = .seconds(60)
    ) {
        self.socketPath = socketPath
        self.handler = handler
        self.messageTimeout = messageTimeout
        self.idleTimeout = idleTimeout
    }

    /// The listening socket. One left by an agent that was killed is replaced: the caller has
    /// made sure no agent runs for this directory (its own socket answered nobody).
    public func listen() throws -> FileDescriptor {
        try? FileSystem.removeIfPresent(socketPath)
        do {
            let listener = try UnixSocket.listen(at: socketPath, permissions: 0o600)
            let made = try? FileSystem.status(socketPath)
            registry.withLock { listening = made.map { ($0.device, $0.inode) } }
            return listener
        } catch {
            throw AgentError.unsafeDirectory("cannot listen on \(socketPath): \(error)")
        }
    }

    /// Removes the socket if it is still the one this server made.
    public func removeSocket() {
        registry.lock()
        defer { registry.unlock() }
        guard let made = listening, let now = try? FileSystem.status(socketPath), now.device == made.device,
            now.inode == made.inode
        else { return }
        try? FileSystem.removeIfPresent(socketPath)
        listening = nil
    }

    /// Accepts connections on `listener` until `stopped` says so (asked every 250 ms), then
    /// closes it and removes the socket.
    public func acceptLoop(on listener: FileDescriptor, until stopped: () -> Bool) {
        defer {
            listener.close()
            removeSocket()
        }
        while !stopped() {
            guard let client = try? UnixSocket.accept(on: listener, waitingAtMost: .milliseconds(250)) else { continue }
            admit(client)
        }
    }

    /// A connection to this server without its socket: one end of a socket pair, the other
    /// served as an accepted client would be. For tests of the protocol in one process.
    public func connectInProcess() -> FileDescriptor? {
        guard let (client, served) = try? UnixSocket.pair() else { return nil }
        admit(served)
        return client
    }

    private func admit(_ descriptor: FileDescriptor) {
        // Who connected, read first (`PeerProcess`; as `AgentServer` does).
        let peer = PeerProcess.connected(to: descriptor)
        registry.lock()
        if open.count >= Self.maximumConnections {
            guard let idlest = open.values.filter(\.waiting).min(by: { $0.since < $1.since }) else {
                registry.unlock()
                descriptor.close()
                return
            }
            // Its thread's wait returns at once and its read ends; the thread closes it.
            idlest.descriptor.shutdown(.both)
            open[idlest.descriptor]?.waiting = false
        }
        open[descriptor] = OpenConnection(descriptor: descriptor, since: .now)
        registry.unlock()
        let finish: @Sendable () -> Void = { [self] in
            registry.withLock {
                open[descriptor] = nil
                descriptor.close()
            }
        }
        do {
            try DetachedThread.start { [self] in
                serve(descriptor, peer: peer)
                finish()
            }
        } catch {
            finish()
        }
    }

    /// One connection's messages, answered in order, until the client closes, breaks the framing
    /// or runs out of time.
    private func serve(_ descriptor: FileDescriptor, peer: PeerProcess?) {
        guard descriptor.peerUserID == CurrentProcess.userID else { return }
        var connection = SSHAgentConnection(peer: peer)
        while true {
            registry.withLock {
                open[descriptor]?.waiting = true
                open[descriptor]?.since = .now
            }
            do {
                try descriptor.wait(for: .input, before: .after(idleTimeout))
            } catch {
                return  // idle too long, or the connection broke
            }
            registry.withLock { open[descriptor]?.waiting = false }
            guard let body = receive(descriptor) else { return }
            let reply = answer(body, on: &connection)
            let sent = reply.withUnsafeBytes { bytes in
                (try? descriptor.sendAll(bytes, before: .after(messageTimeout))) != nil
            }
            guard sent else { return }
        }
    }

    /// The next message's body (type and contents) in protected memory; nil when the client
    /// closed, sent a length out of bounds, stopped short, or took longer than `messageTimeout`.
    private func receive(_ descriptor: FileDescriptor) -> SecureBytes? {
        let deadline = Deadline.after(messageTimeout)
        var header = [UInt8](repeating: 0, count: 4)
        guard header.withUnsafeMutableBytes({ read(descriptor, into: $0, before: deadline) }) else { return nil }
        let length = SSHWire.length(header)
        guard length > 0, length <= SSHAgentProtocol.maximumMessageBytes,
            var body = try? SecureBytes(zeros: length)
        else { return nil }
        guard body.withUnsafeMutableBytes({ read(descriptor, into: $0, before: deadline) }) else { return nil }
        return body
    }

    /// Fills `buffer` whole before `deadline`; false at the end of the stream, on an error or at
    /// the deadline.
    private func read(
        _ descriptor: FileDescriptor, into buffer: UnsafeMutableRawBufferPointer, before deadline: Deadline
    )
        -> Bool
    {
        var filled = 0
        while filled < buffer.count {
            guard
                let got = try? descriptor.readSome(
                    into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]), before: deadline),
                got > 0
            else { return false }
            filled += got
        }
        return true
    }

    /// The reply to one message's body.
    private func answer(_ body: borrowing SecureBytes, on connection: inout SSHAgentConnection) -> [UInt8] {
        // Only the two messages answered are copied out of protected memory; the type is the
        // first byte, and `receive` never returns an empty body.
        let type = body.withUnsafeBytes { $0.first ?? 0 }
        // A lock's or an unlock's password stays in protected memory, from the body to the key
        // derivation; the handler's answer is success or failure.
        if type == SSHAgentProtocol.MessageType.lock.rawValue || type == SSHAgentProtocol.MessageType.unlock.rawValue {
            guard let password = SSHAgentProtocol.password(in: body) else { return SSHAgentProtocol.failure }
            if type == SSHAgentProtocol.MessageType.lock.rawValue {
                handler.sshLock()
                return SSHAgentProtocol.message(.success)
            }
            return handler.sshUnlock(password: password) ? SSHAgentProtocol.message(.success) : SSHAgentProtocol.failure
        }
        guard
            type == SSHAgentProtocol.MessageType.requestIdentities.rawValue
                || type == SSHAgentProtocol.MessageType.signRequest.rawValue
                || type == SSHAgentProtocol.MessageType.extension.rawValue
        else { return SSHAgentProtocol.failure }
        let request: SSHAgentProtocol.Request
        do {
            request = try SSHAgentProtocol.request(body.withUnsafeBytes { Array($0) })
        } catch {
            return SSHAgentProtocol.failure
        }
        // A binding is the connection's own business: checked and recorded without the handler.
        if case .sessionBind(let bind) = request {
            guard let hostKey = try? SSHHostKey(blob: bind.hostKey),
                hostKey.verifies(bind.signature, of: bind.sessionID),
                connection.bind(
                    .init(hostKey: bind.hostKey, sessionID: bind.sessionID, isForwarding: bind.isForwarding))
            else { return SSHAgentProtocol.failure }
            return SSHAgentProtocol.message(.success)
        }
        switch request {
        case .requestIdentities:
            return SSHAgentProtocol.identitiesAnswer(handler.sshIdentities(for: connection))
        case .sign(let keyBlob, let data, let flags):
            guard connection.allowsSigning(data),
                let signature = handler.sshSign(keyBlob: keyBlob, data: data, flags: flags, for: connection)
            else { return SSHAgentProtocol.failure }
            return SSHAgentProtocol.signResponse(signatureBlob: signature)
        case .sessionBind, .unsupported:
            return SSHAgentProtocol.failure
        }
    }
}
