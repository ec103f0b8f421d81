import Platform
import VaultModel

/// `pwtui secret-service` runs `pwtui-secret-service`, installed beside it, in its place: the
/// Secret Service needs libsystemd's sd-bus, which Debian ships only as a shared library, and
/// pwtui's own binary is linked statically (`make release`) and starts in 2 ms without it. The
/// child gets the vault and settings this command resolved, the same streams, and every signal
/// this process receives; this process ends as the child does.
public enum SecretServiceProcess {
    public static let executableName = "pwtui-secret-service"

    /// `pwtui-secret-service` beside this executable.
    static var program: String {
        directory(of: CurrentProcess.executablePath) + "/" + executableName
    }

    /// The directory a path is in (no trailing slash).
    static func directory(of path: String) -> String {
        String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
    }

    /// Its arguments for `context`: the vault and settings resolved here.
    static func arguments(for context: CommandContext) -> [String] {
        ["--vault", context.vaultPath] + (context.configOption.map { ["--config", $0] } ?? [])
    }

    /// The agent's own Secret Service (`secret_service = true`): started beside the agent as it
    /// starts, its output nowhere (nobody reads the agent's), and ended by the agent as it stops
    /// (`terminate`). Nil when the setting is off or the program is missing; one that cannot
    /// serve (no session bus, another keyring owns the name) ends by itself at once.
    public static func startBeside(agentOf context: CommandContext) -> ChildProcess? {
        guard (try? context.settings())?.secretService == true, FileSystem.isExecutable(program) else { return nil }
        return try? ChildProcess.start(program, arguments(for: context))
    }

    public static func run(in context: CommandContext) throws -> Never {
        let program = program
        guard FileSystem.isExecutable(program) else {
            throw CommandFailure(
                .usage,
                "\(program) is missing: the Secret Service runs as its own program beside pwtui (`make install` installs both)"
            )
        }
        let arguments = arguments(for: context)
        do {
            try ForwardedSignals.watch()
            let child = try ChildProcess.start(
                program, arguments, input: .inherited, output: .inherited, errors: .inherited)
            while true {
                ForwardedSignals.forward(to: child.id)
                if let ending = child.poll() { ForwardedSignals.end(like: ending) }
                CurrentProcess.sleep(for: .milliseconds(20))
            }
        } catch {
            throw CommandFailure(.ioError, "cannot start \(program): \(error)")
        }
    }
}
