import ArgumentParser
import Platform
import Commands
import ServiceMatching
import VaultModel

/// Parses, runs, and turns every failure into a message on stderr and the exit code of
/// docs/design.md#exit-codes (which error gets which code: `ExitStatus(error)`, each error's own).
enum CommandRunner {
    static func run(_ root: Pwtui.Type) -> Never {
        // Until a command runs, an error that is not pwtui's is the parser's (usage, help,
        // version); once one runs, it is a bug (70), never ArgumentParser's catch-all 1.
        var running = false
        do {
            // `pwtui` alone is the picker over every credential. Not ArgumentParser's default
            // subcommand: that would read a mistyped subcommand as a service to pick for.
            var arguments = Array(CommandLine.arguments.dropFirst())
            // git runs `credential.helper pwtui` as `git-credential-pwtui get`: installed under that
            // name (a link to pwtui, see the Makefile), pwtui is the helper itself.
            // Likewise docker's and podman's `docker-credential-pwtui get`, and the askpass
            // programs' `pwtui-askpass PROMPT` (a prompt is never an option: `--` before it).
            switch CommandLine.arguments.first?.split(separator: "/").last {
            case "git-credential-pwtui": arguments.insert("git-credential", at: 0)
            case "docker-credential-pwtui": arguments.insert("docker-credential", at: 0)
            case "pwtui-askpass": arguments.insert(contentsOf: ["askpass", "--"], at: 0)
            default: break
            }
            // `--generate=RULES` (the spelling, and what users of Safari's attribute type)
            // is `--generate --rules RULES`: ArgumentParser has no flag with an optional value.
            var optionsEnded = false
            arguments = arguments.flatMap { word in
                optionsEnded = optionsEnded || word == "--"
                return !optionsEnded && word.hasPrefix("--generate=")
                    ? ["--generate", "--rules", String(word.dropFirst(11))] : [word]
            }
            try ArgumentScreening.check(arguments, root: root)
            if let get = QuickGet(arguments) {
                running = true
                try get.run()
                CurrentProcess.exit(0)
            }
            var command = try root.parseAsRoot(onlyGlobalOptions(arguments) ? ["start"] + arguments : arguments)
            running = true
            try command.run()
            CurrentProcess.exit(0)
        } catch {
            finish(with: error, running: running, root: root)
        }
    }

    /// The message and the exit code for `error`.
    static func finish(with error: any Error, running: Bool, root: Pwtui.Type) -> Never {
        switch error {
        case let failure as CommandFailure where failure.isAnswered:
            CurrentProcess.exit(failure.code.rawValue)
        case is any ExitStatusReporting:
            FinalReport.write("pwtui: \(error)")
            CurrentProcess.exit(ExitStatus(error).rawValue)
        case is ExitCode, is CleanExit, is ValidationError:
            // ArgumentParser's own, thrown by a command: its exit code, its help, its usage (64).
            root.exit(withError: error)
        default:
            guard running else { root.exit(withError: error) }
            FinalReport.write("pwtui: internal error (a bug; please report it): \(error)")
            CurrentProcess.exit(ExitStatus(error).rawValue)
        }
    }

    /// Plain `pwtui`, perhaps with global options (`pwtui --vault ~/work.pwtui`: the picker over
    /// that vault; it was an unknown option, issue 38): nothing but `--vault`, `--config` and
    /// `--master-password-fd`, each with its value. A missing value is left to the parser.
    static func onlyGlobalOptions(_ arguments: [String]) -> Bool {
        let valued: Set<Substring> = ["--vault", "--config", "--master-password-fd"]
        var index = 0
        while index < arguments.count {
            let word = arguments[index]
            if valued.contains(Substring(word)) {
                index += 2
            } else if let equals = word.firstIndex(of: "="), valued.contains(word[..<equals]) {
                index += 1
            } else {
                return false
            }
        }
        return true
    }
}
