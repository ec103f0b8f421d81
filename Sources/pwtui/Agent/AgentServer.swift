#if canImport(Glibc)
import Glibc
#endif
import Foundation
import VaultCrypto
import VaultModel
import ServiceMatching

/// `pwtui agent` (AutoFill's reusable extension process): holds one vault unlocked so that
/// `get`, git, the picker and scripts answer at once, and hands out only what each request asks
/// for — never the master password or the data key, which stay in this process. Writes (`add`,
/// `edit`, `rm`: a `CredentialChange`) are applied here and saved with the same save protocol,
/// and the identity store follows; a change that failed to save is dropped from memory.
///
/// It listens on a Unix socket in a 0700 directory; a peer of any other uid is refused before it
/// is read. Before answering it re-reads the vault if another process saved it (with the data key
/// it holds, when the keys are unchanged; a new master password locks it). It locks — dropping the
/// vault, whose protected memory is zeroed as it is freed — after the idle timeout (reset by each
/// use), on `lock`, and on SIGTERM, SIGHUP or SIGINT, after which it exits.
///
/// Clients are served concurrently, so that a silent or slow one holds up nobody: each connection
/// is read and answered on a thread of its own, within a deadline for the whole request, and only
/// the work on the vault itself takes turns (under `state`). At most `maximumConnections` are open;
/// one more evicts the oldest that has not finished sending its request. The main thread only
/// accepts and keeps the idle lock, and never waits for a request: it drops the vault whenever it
/// finds the state free and the timeout passed (a request that holds the state is a use anyway).
final class AgentServer: @unchecked Sendable {
    static let maximumConnections = 32
    /// For a client to send its whole request, and again for it to take the whole answer.
    static let requestTimeout = Duration.seconds(5)

    let socketPath: String
    let vaultPath: String
    let idleTimeout: Duration
    let global: GlobalOptions
    /// Guards `vault`, `lastUse` and `suffixes`; held for a request's work on the vault.
    private let state = NSLock()
    /// Guards `stopping` and `socketRemoved`; held only to read or set them, so the accept loop
    /// never waits behind a request.
    private let control = NSLock()
    private var vault: Vault?
    /// Loaded once: reading the list for every request would put file I/O on the fast path.
    private lazy var suffixes: PublicSuffixList = global.publicSuffixList()
    private var lastUse = ContinuousClock.now
    private var stopping = false
    private var socketRemoved = false

    /// The open connections, for the cap; guarded by `registry`, which a thread takes to remove
    /// its connection before closing the descriptor, so an eviction never hits a reused one.
    private struct OpenConnection {
        let fd: Int32
        let accepted: ContinuousClock.Instant
        var receiving = true
    }
    private let registry = NSLock()
    private var open: [Int32: OpenConnection] = [:]

    init(socketPath: String, vaultPath: String, idleTimeout: Duration, global: GlobalOptions) {
        self.socketPath = socketPath
        self.vaultPath = vaultPath
        self.idleTimeout = idleTimeout
        self.global = global
    }

    func run() throws {
        // glibc raises its mmap threshold each time a large block is freed, after which vault-sized
        // buffers come from the heap and fragment it: a process that saves a 2,000-entry vault
        // 1,500 times grew from 23 to 79 MB. A fixed threshold keeps them in mmap (flat at 24 MB).
        ProcessControl.fixMmapThreshold(bytes: 128 * 1024)
        ProcessControl.watchTerminationSignals()
        let listener: Int32
        switch ProcessControl.listen(at: socketPath) {
        case .success(let fd): listener = fd
        case .failure(let error):
            throw CommandFailure(.ioError, "cannot listen on \(socketPath): \(String(cString: strerror(error.code)))")
        }
        chmod(socketPath, 0o600)
        defer {
            close(listener)
            // Unless `stop` removed it already: by now the path may be a new agent's socket.
            control.lock()
            if !socketRemoved { unlink(socketPath) }
            control.unlock()
        }
        while !isStopping() {
            if ProcessControl.receivedSignal != 0 { break }
            // Its socket removed (the runtime directory cleaned up at logout): nobody can reach
            // this agent any more, so it leaves rather than hold the vault for no one.
            if access(socketPath, F_OK) != 0 { break }
            lockIfIdle()
            var descriptor = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 250) > 0 else { continue }
            let client = accept(listener, nil, nil)
            guard client >= 0 else { continue }
            _ = fcntl(client, F_SETFD, FD_CLOEXEC)
            admit(client)
        }
        state.lock()
        vault = nil
        state.unlock()
    }

    private func isStopping() -> Bool {
        control.lock()
        defer { control.unlock() }
        return stopping
    }

    /// Drops the vault once the idle timeout has passed, unless a request holds it right now.
    private func lockIfIdle() {
        guard state.try() else { return }
        defer { state.unlock() }
        if vault != nil, ContinuousClock.now - lastUse >= idleTimeout { vault = nil }
    }

    /// Serves `fd` on a thread of its own, making room under the cap first.
    private func admit(_ fd: Int32) {
        registry.lock()
        if open.count >= Self.maximumConnections {
            if let oldest = open.values.filter(\.receiving).min(by: { $0.accepted < $1.accepted }) {
                // Its thread's read fails at once; the thread closes the descriptor.
                shutdown(oldest.fd, Int32(SHUT_RDWR))
                open[oldest.fd]?.receiving = false
            } else {
                registry.unlock()
                try? AgentConnection(fd: fd, timeout: .milliseconds(100))
                    .send(["ok": false, "code": 75, "message": "the agent is busy with \(Self.maximumConnections) requests; try again"])
                close(fd)
                return
            }
        }
        open[fd] = OpenConnection(fd: fd, accepted: .now)
        registry.unlock()
        let thread = Thread { [self] in
            serve(fd)
            registry.lock()
            open[fd] = nil
            close(fd)
            registry.unlock()
        }
        thread.start()
    }

    private func serve(_ fd: Int32) {
        guard ProcessControl.peerUID(fd) == getuid() else {
            let connection = AgentConnection(fd: fd, timeout: Self.requestTimeout)
            try? connection.send(["ok": false, "code": 77, "message": "refused: the agent serves only its own user"])
            // Closed at once, the socket would turn the request the peer is still sending into
            // EPIPE and it would never read the refusal: wait (briefly) for it to hang up.
            connection.discardUntilClosed(within: .seconds(1))
            return
        }
        var answer: Answer
        do {
            var message = try AgentConnection(fd: fd, timeout: Self.requestTimeout).receive()
            registry.lock()
            open[fd]?.receiving = false
            registry.unlock()
            answer = try handleInTurn(message.header, &message.payload)
        } catch AgentError.timedOut(let seconds) {
            answer = Answer(header: ["ok": false, "code": 74, "message": "the request did not arrive whole within \(seconds) s"])
        } catch let failure as CommandFailure {
            answer = Answer(header: ["ok": false, "code": Int(failure.code.rawValue), "message": failure.message])
        } catch {
            answer = Answer(header: ["ok": false, "code": Int(ExitStatus(error)?.rawValue ?? 74), "message": "\(error)"])
        }
        // A fresh deadline: an unlock may have taken seconds of the first one.
        let reply = AgentConnection(fd: fd, timeout: Self.requestTimeout)
        if let payload = answer.payload {
            try? reply.send(answer.header, payload: payload)
        } else {
            try? reply.send(answer.header)
        }
    }

    /// One request's work on the vault, never two at once.
    private func handleInTurn(_ header: [String: Any], _ payload: inout SecureBytes) throws -> Answer {
        state.lock()
        defer { state.unlock() }
        return try handle(header, &payload)
    }

    private struct Answer: ~Copyable {
        var header: [String: Any]
        var payload: SecureBytes? = nil
    }

    private func handle(_ header: [String: Any], _ payload: inout SecureBytes) throws -> Answer {
        switch header["op"] as? String {
        case "status":
            let idle = vault == nil ? 0 : max(0, Int((idleTimeout - (ContinuousClock.now - lastUse)).components.seconds))
            return Answer(header: ["ok": true, "locked": vault == nil, "vault": vaultPath, "locksInSeconds": idle, "pid": Int(getpid())])
        case "unlock":
            let opened = try Vault.open(at: vaultPath, password: payload)
            payload.removeAll()
            global.syncIdentities(with: opened, previousGeneration: nil)  // rebuilt if missing or stale
            vault = opened
            lastUse = .now
            return Answer(header: ["ok": true])
        case "lock":
            vault = nil
            return Answer(header: ["ok": true])
        case "stop":
            vault = nil
            control.lock()
            stopping = true
            // Gone at once for whoever comes next (an `agent start` right after `agent stop`),
            // not when the accept loop next looks, up to 250 ms later.
            unlink(socketPath)
            socketRemoved = true
            control.unlock()
            return Answer(header: ["ok": true])
        case "get":
            let vault = try unlocked(for: header)
            let credential = try CredentialQuery(fields: header).answer(in: vault, global: global, suffixes: suffixes)
            let field = CredentialField(rawValue: header["field"] as? String ?? "") ?? .password
            // secretSet: lets the git helper remember which password a host rejected (GitRejections).
            return Answer(header: ["ok": true, "identity": IdentityStore.Identity(credential).fields,
                                   "secretSet": Int(credential.secretSet.millisecondsSince1970)],
                          payload: try field.render(credential, from: vault))
        case "identities":
            // For a picker when the identity store is off: the same, never written to disk.
            let vault = try unlocked(for: header)
            return Answer(header: ["ok": true, "identities": vault.contents.credentials.map { IdentityStore.Identity($0).fields },
                                   "equivalents": vault.contents.equivalents.groups])
        case "describe":
            let vault = try unlocked(for: header)
            let credential = try vault.credential(id: header["id"] as? String ?? "")
            return Answer(header: ["ok": true, "identity": IdentityStore.Identity(credential).fields])
        case "write":
            let vault = try unlocked(for: header)
            defer { payload.removeAll() }
            do {
                let identity = try CredentialChange(fields: header).apply(to: vault, secret: payload, global: global)
                try global.save(vault)
                return Answer(header: ["ok": true, "identity": identity.fields])
            } catch {
                // What failed to save must not ride along with the next write.
                do { try vault.revert() } catch { self.vault = nil }
                throw error
            }
        default:
            throw AgentError.protocolError("unknown operation")
        }
    }

    /// The vault, current with the file, when the request is for it and it is unlocked; each use
    /// postpones the idle lock. A master password changed elsewhere locks the agent.
    private func unlocked(for header: [String: Any]) throws -> Vault {
        guard header["vault"] as? String == vaultPath else {
            throw CommandFailure(.interactionRequired, "the agent holds another vault (\(vaultPath))")
        }
        guard let vault else { throw CommandFailure(.interactionRequired, "the agent is locked") }
        do {
            if try vault.reloadIfChanged() { global.syncIdentities(with: vault, previousGeneration: nil) }
        } catch VaultError.conflict(_, let reason) {
            self.vault = nil
            throw CommandFailure(.interactionRequired, "locked: \(reason)")
        }
        lastUse = .now
        return vault
    }
}
