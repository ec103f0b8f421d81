import FoundationEssentials
import Platform
import ServiceMatching
import VaultAgent
import VaultCrypto
import VaultModel

/// `pwtui agent start|stop|status|lock` and `pwtui unlock`: starting the agent (`AgentServer`
/// with an `AgentService`), and the requests that manage it.
public enum AgentControl {
    /// The agent's client, its directory created (0700) if missing.
    static func client(_ context: CommandContext) throws -> AgentClient {
        try context.agentClient(creatingDirectory: true)
    }

    /// Starts the agent, locked: in the background, unless `foreground` (then returns when it
    /// stops). False when one is running already. `idleTimeoutText` is passed on as given.
    public static func launch(
        idleTimeout: Duration, idleTimeoutText: String, foreground: Bool, in context: CommandContext
    ) throws -> Bool {
        let client = try client(context)
        if try client.request(.status) != nil { return false }
        guard let socketPath = client.socketPath else { return false }
        try? FileSystem.removeIfPresent(socketPath)  // a socket left by an agent that was killed
        if foreground {
            // Descriptors inherited from whoever started us (a test harness's pipe that its
            // reader waits on until it closes) must not live as long as the agent.
            CurrentProcess.closeDescriptors(from: 3)
            let service = AgentService(context: context, idleTimeout: idleTimeout)
            let keyring = SecretServiceProcess.startBeside(agentOf: context)
            defer { keyring?.terminate(within: .milliseconds(500)) }
            try AgentServer(
                socketPath: socketPath, handler: service,
                ssh: (socketPath: context.paths.sshAgentSocket, handler: service)
            ).run()
            return true
        }
        // Detached: a session of its own, so closing the terminal that started it does not end it.
        _ = try ChildProcess.start(
            CurrentProcess.executablePath,
            ["agent", "start", "--foreground", "--idle-timeout", idleTimeoutText, "--vault", context.vaultPath]
                + (context.configOption.map { ["--config", $0] } ?? []),
            detached: true)
        for _ in 0 ..< 100 {
            if try client.request(.status) != nil { return true }
            CurrentProcess.sleep(for: .milliseconds(20))
        }
        throw CommandFailure(.ioError, "the agent did not start")
    }

    /// Sends `request` (lock or stop); false when no agent runs. An agent that cannot read it
    /// (one of another version, left running across an upgrade) is stopped all the same by
    /// removing its socket: every pwtui agent leaves, locked, when its socket goes.
    public static func send(_ request: AgentRequest, in context: CommandContext) throws -> Bool {
        let client = try client(context)
        do {
            return try client.request(request) != nil
        } catch AgentError.unreadable where request == .stop {
            guard let socketPath = client.socketPath else { throw AgentError.unreadable("the agent in this process") }
            try? FileSystem.removeIfPresent(socketPath)
            return true
        }
    }

    /// `agent status`: its state, or nil when none runs.
    public static func status(in context: CommandContext) throws -> AgentStatus? {
        guard let answer = try client(context).request(.status) else { return nil }
        guard case .status(let status) = answer.body else { throw AgentError.unexpected(answer.body) }
        return status
    }

    /// A master password typed on a terminal (get, pick, add, the git helper's picker) also
    /// unlocks the agent, started if none runs, for the settings' idle timeout: so the next
    /// command asks nothing, as `pwtui unlock` would have made it (rbw works so). Only with
    /// `agent = "auto"` (the default), for the vault the context names, and never an agent that
    /// holds another vault. The unlock is posted, not awaited: the agent derives the key while
    /// this command goes on. Any failure only means the next command asks again.
    public static func keepUnlocked(with password: borrowing SecureBytes, in context: CommandContext) {
        guard context.sharesUnlocks, context.masterPasswordFD == nil, let settings = try? context.settings(),
            settings.agent == .auto, let client = try? client(context)
        else { return }
        if let answer = try? client.request(.status), case .status(let state) = answer.body {
            guard state.vault == context.vaultPath, state.locked else { return }
        } else {
            guard
                (try? launch(
                    idleTimeout: .seconds(Settings.durationSeconds(settings.agentIdleTimeout) ?? 900),
                    idleTimeoutText: settings.agentIdleTimeout, foreground: false, in: context)) == true
            else { return }
        }
        _ = try? client.post(.unlock, payload: password)
    }

    /// `pwtui unlock`: the master password goes to the agent (started first if none runs). True
    /// when it had to be started.
    public static func unlock(idleTimeoutText: String, in context: CommandContext) throws -> Bool {
        let path = context.vaultPath
        try VaultStorage.requireVaultFile(path)
        let client = try client(context)
        var started = false
        if try client.request(.status) == nil {
            started = try launch(
                idleTimeout: .seconds(15 * 60), idleTimeoutText: idleTimeoutText, foreground: false, in: context)
        }
        let interrupted = PasswordChangeMarker.pending(vaultPath: path)
        if let interrupted { context.streams.say(interrupted.notice) }
        try context.withMasterPassword { password in
            guard let answer = try client.request(.unlock, payload: password) else {
                throw CommandFailure(.ioError, "the agent went away")
            }
            if case .refused(let status, let message) = answer.body {
                throw AgentRefusal(status: status, message: message)
            }
        }
        interrupted?.marker.remove()
        return started
    }
}
