import FoundationEssentials
import Platform
import ServiceMatching
import VaultCrypto
import VaultModel

/// What the agent does with a request: the vault it holds, and every operation on it. The
/// server below only carries requests to it and answers back; requests arrive side by side, each
/// on its connection's thread, and the handler takes its own turns (readers together, writers
/// alone: `AgentService`).
public protocol AgentHandler: AnyObject, Sendable {
    /// One request's work, called for several requests at once. Errors are the handler's to
    /// turn into a `.refused` reply. `peer`: the process that connected (SO_PEERCRED), captured
    /// when the connection was accepted (`PeerProcess`: the handler checks it has not exec'd
    /// since), which waits for the answer meanwhile: who asks, for credentials bound to programs.
    /// `limit`: when long work must end (its client gone, the agent stopping, its deadline).
    func handle(_ request: AgentRequest, payload: inout SecureBytes, peer: PeerProcess?, limit: AgentWorkLimit)
        -> AgentAnswer
    /// Called from the accept loop about four times a second: the idle lock. Must not wait.
    func idle()
    /// Called once when the server stops: the vault is dropped if that can be done within
    /// `time` (a write in progress finishes first); the process ends either way.
    func stop(within time: Duration)
}

/// A reply and, for a `get`, the requested field in protected memory.
public struct AgentAnswer: ~Copyable {
    public var reply: AgentReply
    public var payload: SecureBytes?

    public init(_ reply: AgentReply, payload: consuming SecureBytes? = nil) {
        self.reply = reply
        self.payload = payload
    }
}

/// `pwtui agent`'s connections (AutoFill's reusable extension process): a Unix socket in a 0700
/// directory; a peer of any other uid is refused before it is read.
///
/// Clients are served concurrently, so that a silent or slow one holds up nobody: each connection
/// is read and answered on a thread of its own, within a deadline for the whole request, and the
/// handler decides what its work may share (docs/agent.md, "Concurrency"). At most
/// `maximumConnections` are open; one more evicts the oldest that has not finished sending its
/// request. The main thread only accepts and calls the handler's `idle`, and never waits for a
/// request. It stops on a `stop` request, on SIGTERM, SIGHUP or SIGINT (within a second, whatever
/// the requests are doing: they are abandoned), and when its socket is removed (the runtime
/// directory cleaned up at logout: nobody can reach it any more).
///
/// With an `SSHAgentServer`, OpenSSH's clients are served on a second socket beside the first,
/// accepted on a thread of its own and handled by the same handler; it stops when this does.
public final class AgentServer: @unchecked Sendable {
    public static let maximumConnections = 32
    /// For a client to send its whole request, and again for it to take the whole answer.
    public static let requestTimeout = Duration.seconds(5)
    /// How long a connection may wait between an answer and its next request
    /// (`AgentKeptConnection`) before the agent closes it.
    public static let keptIdleTime = AgentKeptConnection.reuseTime * 2

    /// How long a stopping agent waits for a write in progress before it ends without it.
    public static let stopTime = Duration.milliseconds(600)

    public let socketPath: String
    private let handler: any AgentHandler
    /// Guards `stopping` and `socketRemoved`; held only to read or set them, so the accept loop
    /// never waits behind a request.
    private let control = Lock()
    private var stopping = false
    private var socketRemoved = false

    /// The open connections, for the cap; guarded by `registry`, which a thread takes to remove
    /// its connection before closing the descriptor, so an eviction never hits a reused one.
    private struct OpenConnection {
        let descriptor: FileDescriptor
        let accepted: ContinuousClock.Instant
        var receiving = true
    }
    private let registry = Lock()
    private var open: [FileDescriptor: OpenConnection] = [:]

    /// The ssh-agent socket's path and handler, when the agent serves one.
    private let ssh: (socketPath: String, handler: any SSHAgentHandler)?
    /// Its server once listening; guarded by `control`.
    private var sshServer: SSHAgentServer?

    public init(
        socketPath: String, handler: any AgentHandler, ssh: (socketPath: String, handler: any SSHAgentHandler)? = nil
    ) {
        self.socketPath = socketPath
        self.handler = handler
        self.ssh = ssh
    }

    public func run() throws {
        // glibc raises its mmap threshold each time a large block is freed, after which vault-sized
        // buffers come from the heap and fragment it: a process that saves a 2,000-entry vault
        // 1,500 times grew from 23 to 79 MB. A fixed threshold keeps them in mmap (flat at 24 MB).
        MemoryTuning.fixMmapThreshold(bytes: 128 * 1024)
        SignalFlag.watchTermination()
        let listener: FileDescriptor
        do {
            listener = try UnixSocket.listen(at: socketPath, permissions: 0o600)
        } catch {
            throw AgentError.unsafeDirectory("cannot listen on \(socketPath): \(error)")
        }
        defer {
            listener.close()
            // Unless a `stop` removed it already: by now the path may be a new agent's socket.
            control.lock()
            if !socketRemoved { try? FileSystem.removeIfPresent(socketPath) }
            control.unlock()
        }
        let sshServer = try ssh.map { try startSSHAgent(socketPath: $0.socketPath, handler: $0.handler) }
        control.withLock { self.sshServer = sshServer }
        defer {
            control.withLock { stopping = true }
            // Now, not when its thread next looks: the process may end first.
            sshServer?.removeSocket()
        }
        while !isStopping() {
            if SignalFlag.received != nil { break }
            if !FileSystem.exists(socketPath) { break }
            handler.idle()
            guard let client = try? UnixSocket.accept(on: listener, waitingAtMost: .milliseconds(250)) else { continue }
            admit(client)
        }
        control.withLock { stopping = true }
        handler.stop(within: Self.stopTime)
    }

    /// A connection to this server without its socket: one end of a socket pair, the other
    /// served as an accepted client would be. For tests of the whole exchange in one process.
    public func connectInProcess() -> AgentConnection? {
        guard let (client, served) = try? UnixSocket.pair() else { return nil }
        admit(served)
        return AgentConnection(client, timeout: AgentClient.answerTimeout)
    }

    /// The ssh-agent socket, served on a thread of its own until this server stops (which
    /// removes its socket there, or, when the process ends first, the next agent's `listen`).
    private func startSSHAgent(socketPath path: String, handler sshHandler: any SSHAgentHandler) throws
        -> SSHAgentServer
    {
        let server = SSHAgentServer(socketPath: path, handler: sshHandler)
        let listener = try server.listen()
        do {
            try DetachedThread.start { [self] in
                server.acceptLoop(on: listener, until: { isStopping() })
            }
        } catch {
            listener.close()
            server.removeSocket()
            throw AgentError.unsafeDirectory("cannot serve \(path): \(error)")
        }
        return server
    }

    private func isStopping() -> Bool {
        control.lock()
        defer { control.unlock() }
        return stopping
    }

    /// Serves `fd` on a thread of its own, making room under the cap first.
    private func admit(_ descriptor: FileDescriptor) {
        // Who connected, before anything else: the later it is read, the longer a requester has
        // to exec another program in the connected process (`PeerProcess`).
        let peer = PeerProcess.connected(to: descriptor)
        registry.lock()
        if open.count >= Self.maximumConnections {
            if let oldest = open.values.filter(\.receiving).min(by: { $0.accepted < $1.accepted }) {
                // Its thread's read fails at once; the thread closes the descriptor.
                oldest.descriptor.shutdown(.both)
                open[oldest.descriptor]?.receiving = false
            } else {
                registry.unlock()
                try? AgentConnection(descriptor, timeout: .milliseconds(100)).send(
                    AgentReply.refused(
                        status: .interactionRequired,
                        message: "the agent is busy with \(Self.maximumConnections) requests; try again"))
                descriptor.close()
                return
            }
        }
        open[descriptor] = OpenConnection(descriptor: descriptor, accepted: .now)
        registry.unlock()
        let finish: @Sendable () -> Void = { [self] in
            registry.lock()
            open[descriptor] = nil
            descriptor.close()
            registry.unlock()
        }
        do {
            try DetachedThread.start { [self] in
                serve(descriptor, peer: peer)
                finish()
            }
        } catch {
            finish()  // no thread to serve it: the client sees the connection closed
        }
    }

    private func serve(_ descriptor: FileDescriptor, peer: PeerProcess?) {
        guard descriptor.peerUserID == CurrentProcess.userID else {
            let connection = AgentConnection(descriptor, timeout: Self.requestTimeout)
            try? connection.send(
                AgentReply.refused(status: .wrongPassword, message: "refused: the agent serves only its own user"))
            // Closed at once, the socket would turn the request the peer is still sending into
            // EPIPE and it would never read the refusal: wait (briefly) for it to hang up.
            connection.discardUntilClosed(within: .seconds(1))
            return
        }
        // Request after request, each answered before the next is read, until the client hangs
        // up, sends past its request without waiting, stays idle too long, or the agent stops.
        var first = true
        var block: SecureBytes
        do { block = try AgentConnection.block() } catch { return }
        while first || waitForNextRequest(on: descriptor) {
            var answer: AgentAnswer
            var another = false
            do {
                var message = try AgentConnection(descriptor, timeout: Self.requestTimeout).receive(
                    AgentRequest.self, reading: &block)
                // Off the cap's list of idle connections, unless the cap evicted this one while its
                // request came in: then it goes unanswered, as if never read, since its client
                // (a kept connection's) asks again on a new one and would have it run twice.
                let evicted = registry.withLock { () -> Bool in
                    guard open[descriptor]?.receiving == true else { return true }
                    open[descriptor]?.receiving = false
                    return false
                }
                if evicted { return }
                another = !message.overran && message.body != .stop
                answer = handle(message.body, &message.payload, peer: peer, on: descriptor)
            } catch AgentError.closedBeforeMessage where !first {
                return  // a kept connection's client hung up between requests
            } catch AgentError.timedOut(let seconds) {
                answer = AgentAnswer(
                    .refused(status: .ioError, message: "the request did not arrive whole within \(seconds) s"))
            } catch {
                answer = AgentAnswer(.refused(status: .ioError, message: "\(error)"))
            }
            // A fresh deadline: an unlock may have taken seconds of the first one.
            let reply = AgentConnection(descriptor, timeout: Self.requestTimeout)
            do {
                if let payload = answer.payload.take() {
                    try reply.send(answer.reply, payload: payload)
                } else {
                    try reply.send(answer.reply)
                }
            } catch {
                return
            }
            guard another, !isStopping() else { return }
            first = false
        }
    }

    /// Waits, as an idle connection the cap may evict, for the next request to start; false
    /// when none does within `keptIdleTime` (or the client hung up: the read says so).
    private func waitForNextRequest(on descriptor: FileDescriptor) -> Bool {
        registry.withLock { open[descriptor]?.receiving = true }
        return (try? descriptor.wait(for: .input, before: .after(Self.keptIdleTime))) != nil
    }

    private func handle(
        _ request: AgentRequest, _ payload: inout SecureBytes, peer: PeerProcess?, on descriptor: FileDescriptor
    ) -> AgentAnswer {
        let limit = AgentWorkLimit(deadline: .now + AgentRequest.longWorkTime) { [self] in
            descriptor.hasHungUp || isStopping()
        }
        let answer = handler.handle(request, payload: &payload, peer: peer, limit: limit)
        if request == .stop {
            control.lock()
            stopping = true
            // Gone at once for whoever comes next (an `agent start` right after `agent stop`),
            // not when the accept loop next looks, up to 250 ms later.
            if !socketPath.isEmpty { try? FileSystem.removeIfPresent(socketPath) }
            socketRemoved = true
            sshServer?.removeSocket()
            control.unlock()
        }
        return answer
    }
}
