import ArgumentParser
import Platform
import Commands
import ServiceMatching
import VaultModel

/// Parses, runs, and turns every failure into a message on stderr and the exit code of
/// docs/design.md#exit-codes (which error gets which code: `ExitStatus(error)`, each error's own).
enum CommandRunner {
    static func run(_ root: Pwtui.Type) -> Never {
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
                try get.run()
                CurrentProcess.exit(0)
            }
            if let add = QuickAdd(arguments) {
                try add.run()
                CurrentProcess.exit(0)
            }
            var command = try root.parseAsRoot(onlyGlobalOptions(arguments) ? ["start"] + arguments : arguments)
            try command.run()
            CurrentProcess.exit(0)
        } catch {
            finish(with: error, root: root)
        }
    }

    /// The message and the exit code for `error`.
    static func finish(with error: any Error, root: Pwtui.Type) -> Never {
        if let failure = error as? CommandFailure, failure.isAnswered {
            CurrentProcess.exit(failure.code.rawValue)
        }
        if error is any ExitStatusReporting {
            FinalReport.write("pwtui: \(error)")
            CurrentProcess.exit(ExitStatus(error).rawValue)
        }
        if isArgumentParsers(error) {
            // Help, version, usage (64), `ExitCode`: the parser says and decides. Some are its
            // internal types (`pwtui help init` throws one from its help command), so they are
            // told by their module, not by a list of types.
            root.exit(withError: error)
        }
        FinalReport.write("pwtui: internal error (a bug; please report it): \(error)")
        CurrentProcess.exit(ExitStatus(error).rawValue)
    }

    /// Whether `error` is one of ArgumentParser's own (public or internal) types.
    static func isArgumentParsers(_ error: any Error) -> Bool {
        String(reflecting: type(of: error)).hasPrefix("ArgumentParser.")
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
