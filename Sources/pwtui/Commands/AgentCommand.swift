#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import Foundation
import VaultCrypto
import VaultModel

/// `pwtui agent start|stop|status|lock` and `pwtui unlock`: see `AgentServer`.
struct AgentCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "agent", abstract: "Keep the vault unlocked for a while, so get, git and scripts answer at once.",
        subcommands: [Start.self, Stop.self, Status.self, Lock.self])

    /// "15m", "90s", "2h" or plain seconds. Thrown from `run`, so a usage error of our own: a
    /// `ValidationError` there would be reported with the root command's usage.
    static func duration(_ text: String) throws -> Duration {
        let units: [Character: Int64] = ["s": 1, "m": 60, "h": 3600]
        let unit = text.last.flatMap { units[$0] }
        guard let value = Int64(unit == nil ? text : String(text.dropLast())), value >= 0 else {
            throw CommandFailure(.usage, "--idle-timeout '\(text)' is not a duration (like 15m, 90s, 2h)")
        }
        guard value > 0 else {
            throw CommandFailure(.usage, "--idle-timeout \(text): the agent would lock the moment it is unlocked, so it could never "
                + "answer; there is no 'never lock' either (an unlocked vault left for good is what the timeout prevents). "
                + "Give how long it may stay unused, like 15m, 90s or 8h")
        }
        return .seconds(value * (unit ?? 1))
    }

    static func client() throws -> AgentClient {
        AgentClient(socketPath: try AgentClient.socketPath(creating: true))
    }

    struct Start: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "start", abstract: "Start the agent (locked) in the background.")
        @OptionGroup var global: GlobalOptions

        @Option(name: .customLong("idle-timeout"), help: "Lock after this long unused (15m, 90s, 2h).")
        var idleTimeout = "15m"

        @Flag(help: "Stay in the foreground (for service managers).")
        var foreground = false

        func run() throws {
            guard try launch() else {
                StandardError.say("The agent is already running.")
                return
            }
            if !foreground {
                StandardError.say("Agent started (locked; `pwtui unlock` to unlock; locks after \(idleTimeout) unused).")
            }
        }

        /// Starts the agent (in the background, unless `--foreground`: then returns when it
        /// stops); false when one is running already.
        func launch() throws -> Bool {
            let timeout = try AgentCommand.duration(idleTimeout)
            let client = try AgentCommand.client()
            if try client.request(["op": "status"]) != nil { return false }
            unlink(client.socketPath)  // a socket left by an agent that was killed
            if foreground {
                // Descriptors inherited from whoever started us (Foundation's Process leaves one
                // that its parent waits on until it closes) must not live as long as the agent.
                for fd in Int32(3) ..< 1024 { close(fd) }
                try AgentServer(socketPath: client.socketPath, vaultPath: global.vaultPath, idleTimeout: timeout, global: global).run()
                return true
            }
            // Detached: a new session (Foundation makes children group leaders, so setsid forks).
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/setsid")
            process.arguments = ["-f", CommandLine.arguments[0], "agent", "start", "--foreground",
                                 "--idle-timeout", idleTimeout, "--vault", global.vaultPath]
                + (global.config.map { ["--config", $0] } ?? [])
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            for _ in 0 ..< 100 {
                if try client.request(["op": "status"]) != nil { return true }
                usleep(20_000)
            }
            throw CommandFailure(.ioError, "the agent did not start")
        }
    }

    struct Stop: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "stop", abstract: "Lock and stop the agent.")
        func run() throws {
            guard try AgentCommand.client().request(["op": "stop"]) != nil else {
                StandardError.say("No agent is running.")
                return
            }
            StandardError.say("Agent stopped; the vault it held is locked.")
        }
    }

    struct Lock: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "lock", abstract: "Forget the unlocked vault; the agent keeps running.")
        func run() throws {
            guard try AgentCommand.client().request(["op": "lock"]) != nil else {
                StandardError.say("No agent is running.")
                return
            }
            StandardError.say("Agent locked; it keeps running (`pwtui unlock` to unlock again).")
        }
    }

    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "status", abstract: "Is an agent running, and is it unlocked? (exit 0 unlocked, 75 locked or none)")
        func run() throws {
            guard let answer = try AgentCommand.client().request(["op": "status"]) else {
                throw CommandFailure(.interactionRequired, "no agent is running")
            }
            let locked = answer.header["locked"] as? Bool ?? true
            let vault = answer.header["vault"] as? String ?? "?"
            try StandardOutput.write(locked ? "locked (\(vault))\n"
                : "unlocked (\(vault)); locks in \(answer.header["locksInSeconds"] as? Int ?? 0) s unless used\n")
            if locked { throw ExitCode(ExitStatus.interactionRequired.rawValue) }
        }
    }
}

struct UnlockCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unlock", abstract: "Unlock the vault in the agent (starting it if needed).")

    @OptionGroup var global: GlobalOptions

    func run() throws {
        let path = global.vaultPath
        try VaultStorage.requireVaultFile(path)
        let client = try AgentCommand.client()
        var started: AgentCommand.Start?
        if try client.request(["op": "status"]) == nil {
            // Started quietly: "started (locked; `pwtui unlock` ...)" is not news to whoever runs unlock.
            let start = try AgentCommand.Start.parse(["--vault", path] + (global.config.map { ["--config", $0] } ?? []))
            if try start.launch() { started = start }
        }
        let interrupted = PasswordChangeMarker.pending(vaultPath: path)
        if let interrupted { StandardError.say(interrupted.notice) }
        let password = try global.masterPassword()
        guard let answer = try client.request(["op": "unlock"], payload: password) else {
            throw CommandFailure(.ioError, "the agent went away")
        }
        guard answer.header["ok"] as? Bool == true else { throw AgentClient.refusal(answer.header) }
        interrupted?.marker.remove()
        StandardError.say(started.map { "Agent started and unlocked (locks after \($0.idleTimeout) unused; `pwtui agent lock` locks now)." }
            ?? "Unlocked in the agent.")
    }
}
