import ArgumentParser
import Platform

/// Parses, runs, and turns every failure into a message on stderr and the exit code of
/// DESIGN §3. The one place where errors become exit codes.
enum CommandRunner {
    static func run(_ root: Pwtui.Type) -> Never {
        do {
            // `pwtui` alone is the picker over every credential. Not ArgumentParser's default
            // subcommand: that would read a mistyped subcommand as a service to pick for.
            var arguments = Array(CommandLine.arguments.dropFirst())
            // git runs `credential.helper pwtui` as `git-credential-pwtui get`: installed under that
            // name (a link to pwtui, see the Makefile), pwtui is the helper itself.
            if CommandLine.arguments.first?.split(separator: "/").last == "git-credential-pwtui" {
                arguments.insert("git-credential", at: 0)
            }
            try ArgumentScreening.check(arguments, root: root)
            var command = try root.parseAsRoot(arguments.isEmpty ? ["start"] : arguments)
            try command.run()
            CurrentProcess.exit(0)
        } catch let failure as CommandFailure {
            report(failure.message)
            CurrentProcess.exit(failure.code.rawValue)
        } catch {
            if let code = ExitStatus(error) {
                report("\(error)")
                CurrentProcess.exit(code.rawValue)
            }
            // ArgumentParser's own errors: help, version, usage (exit 64).
            root.exit(withError: error)
        }
    }

    static func report(_ message: String) {
        try? FileDescriptor.standardError.writeAll("pwtui: " + message + "\n")
    }
}

/// An error the commands raise themselves, with the code it exits with.
struct CommandFailure: Error {
    let code: ExitStatus
    let message: String

    init(_ code: ExitStatus, _ message: String) {
        self.code = code
        self.message = message
    }
}
