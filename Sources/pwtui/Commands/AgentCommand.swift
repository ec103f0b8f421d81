import ArgumentParser
import Commands
import ServiceMatching
import VaultAgent
import VaultModel

/// `pwtui agent start|stop|status|lock` and `pwtui unlock`: see `AgentService` and `AgentControl`.
struct AgentCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "agent", abstract: "Keep the vault unlocked for a while, so get, git and scripts answer at once.",
        discussion: """
            Example: an agent that locks after an hour unused, then unlocked once
              pwtui agent start --idle-timeout 1h && pwtui unlock
            """,
        subcommands: [Start.self, Stop.self, Status.self, Lock.self])

    /// "15m", "90s", "2h" or plain seconds. Thrown from `run`, so a usage error of our own: a
    /// `ValidationError` there would be reported with the root command's usage.
    static func duration(_ text: String) throws -> Duration {
        guard let seconds = Settings.durationSeconds(text) else {
            throw CommandFailure(.usage, "--idle-timeout '\(text)' is not a duration (like 15m, 90s, 2h)")
        }
        guard seconds > 0 else {
            throw CommandFailure(
                .usage,
                "--idle-timeout \(text): the agent would lock the moment it is unlocked, so it could never "
                    + "answer; there is no 'never lock' either (an unlocked vault left for good is what the timeout prevents). "
                    + "Give how long it may stay unused, like 15m, 90s or 8h")
        }
        return .seconds(seconds)
    }

    struct Start: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "start", abstract: "Start the agent (locked) in the background.")
        @OptionGroup var global: GlobalOptions

        @Option(name: .customLong("idle-timeout"), help: "Lock after this long unused (15m, 90s, 2h).")
        var idleTimeout = "15m"

        @Flag(help: "Stay in the foreground (for service managers).")
        var foreground = false

        func run() throws {
            let timeout = try AgentCommand.duration(idleTimeout)
            let context = global.context()
            guard
                try AgentControl.launch(
                    idleTimeout: timeout, idleTimeoutText: idleTimeout, foreground: foreground, in: context)
            else {
                context.streams.say("The agent is already running.")
                return
            }
            if !foreground {
                context.streams.say(
                    "Agent started (locked; `pwtui unlock` to unlock; locks after \(idleTimeout) unused).")
            }
        }
    }

    struct Stop: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "stop", abstract: "Lock and stop the agent.")
        func run() throws {
            let context = CommandContext()
            guard try AgentControl.send(.stop, in: context) else {
                context.streams.say("No agent is running.")
                return
            }
            context.streams.say("Agent stopped; the vault it held is locked.")
        }
    }

    struct Lock: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "lock", abstract: "Forget the unlocked vault; the agent keeps running.")
        func run() throws {
            let context = CommandContext()
            guard try AgentControl.send(.lock, in: context) else {
                context.streams.say("No agent is running.")
                return
            }
            context.streams.say("Agent locked; it keeps running (`pwtui unlock` to unlock again).")
        }
    }

    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "status",
            abstract: "Is an agent running, and is it unlocked? (exit 0 unlocked, 75 locked or none)")
        func run() throws {
            let context = CommandContext()
            guard let status = try AgentControl.status(in: context) else {
                throw CommandFailure(.interactionRequired, "no agent is running")
            }
            try context.streams.write(
                status.locked
                    ? "locked (\(status.vault))\n"
                    : "unlocked (\(status.vault)); locks in \(status.locksInSeconds) s unless used\n")
            if status.locked { throw ExitCode(ExitStatus.interactionRequired.rawValue) }
        }
    }
}

struct UnlockCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unlock", abstract: "Unlock the vault in the agent (starting it if needed).",
        discussion: """
            Example: unlock once; the next gets answer without asking
              pwtui unlock && pwtui get github.com
            """)

    @OptionGroup var global: GlobalOptions

    @Option(
        name: .customLong("idle-timeout"),
        help:
            "When it starts the agent: lock after this long unused (15m, 90s, 2h; default: agent_idle_timeout in the settings, else 15m)."
    )
    var idleTimeout: String?

    func run() throws {
        let context = global.context()
        let timeout = try idleTimeout ?? context.settings().agentIdleTimeout
        _ = try AgentCommand.duration(timeout)
        let started = try AgentControl.unlock(idleTimeoutText: timeout, in: context)
        context.streams.say(
            started
                ? "Agent started and unlocked (locks after \(timeout) unused; `pwtui agent lock` locks now)."
                : "Unlocked in the agent.")
    }
}
