import Platform
import VaultModel

/// `pwtui secret-service` runs `pwtui-secret-service`, installed beside it, in its place: the
/// Secret Service needs libsystemd's sd-bus, which Debian ships only as a shared library, and
/// pwtui's own binary is linked statically (`make release`) and starts in 2 ms without it. The
/// child gets the vault and settings this command resolved, the same streams, and every signal
/// this process receives; this process ends as the child does.
public enum SecretServiceProcess {
    public static let executableName = "pwtui-secret-service"

    public static func run(in context: CommandContext) throws -> Never {
        let own = CurrentProcess.executablePath
        let program = own[..<(own.lastIndex(of: "/") ?? own.startIndex)] + "/" + executableName
        guard FileSystem.isExecutable(String(program)) else {
            throw CommandFailure(
                .usage,
                "\(program) is missing: the Secret Service runs as its own program beside pwtui (`make install` installs both)"
            )
        }
        var arguments = ["--vault", context.vaultPath]
        if let config = context.configOption { arguments += ["--config", config] }
        do {
            try ForwardedSignals.watch()
            let child = try ChildProcess.start(
                String(program), arguments, input: .inherited, output: .inherited, errors: .inherited)
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
