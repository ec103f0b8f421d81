#if canImport(Glibc)
import Glibc
#endif
import Foundation
import VaultCrypto
import VaultModel

/// `pwtui agent` (AutoFill's reusable extension process): holds one vault unlocked so that
/// `get`, git, the picker and scripts answer at once, and hands out only what each request asks
/// for — never the master password or the data key, which stay in this process. Writes (`add`,
/// `edit`, `rm`: a `CredentialChange`) are applied here and saved with the same save protocol,
/// and the identity store follows; a change that failed to save is dropped from memory.
///
/// One client at a time on a Unix socket in a 0700 directory; a peer of any other uid is refused
/// before it is read. Before answering it re-reads the vault if another process saved it (with
/// the data key it holds, when the keys are unchanged; a new master password locks it). It locks
/// — dropping the vault, whose protected memory is zeroed as it is freed — after the idle timeout
/// (reset by each use), on `lock`, and on SIGTERM, SIGHUP or SIGINT, after which it exits.
final class AgentServer {
    let socketPath: String
    let vaultPath: String
    let idleTimeout: Duration
    let global: GlobalOptions
    private var vault: Vault?
    /// Loaded once: reading the list for every request would put file I/O on the fast path.
    private lazy var suffixes: PublicSuffixList = global.publicSuffixList()
    private var lastUse = ContinuousClock.now
    private var stopping = false

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
            unlink(socketPath)
        }
        while !stopping {
            if ProcessControl.receivedSignal != 0 { break }
            // Its socket removed (the runtime directory cleaned up at logout): nobody can reach
            // this agent any more, so it leaves rather than hold the vault for no one.
            if access(socketPath, F_OK) != 0 { break }
            if vault != nil, ContinuousClock.now - lastUse >= idleTimeout { vault = nil }
            var descriptor = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 250) > 0 else { continue }
            let client = accept(listener, nil, nil)
            guard client >= 0 else { continue }
            _ = fcntl(client, F_SETFD, FD_CLOEXEC)
            serve(client)
            close(client)
        }
        vault = nil
    }

    private func serve(_ fd: Int32) {
        let connection = AgentConnection(fd: fd)
        connection.setTimeout(seconds: 5)
        guard ProcessControl.peerUID(fd) == getuid() else {
            try? connection.send(["ok": false, "code": 77, "message": "refused: the agent serves only its own user"])
            return
        }
        do {
            var message = try connection.receive()
            let answer = try handle(message.header, &message.payload)
            if let payload = answer.payload {
                try connection.send(answer.header, payload: payload)
            } else {
                try connection.send(answer.header)
            }
        } catch let failure as CommandFailure {
            try? connection.send(["ok": false, "code": Int(failure.code.rawValue), "message": failure.message])
        } catch {
            try? connection.send(["ok": false, "code": Int(ExitStatus(error)?.rawValue ?? 74), "message": "\(error)"])
        }
    }

    private struct Answer: ~Copyable {
        var header: [String: Any]
        var payload: SecureBytes?
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
            stopping = true
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
