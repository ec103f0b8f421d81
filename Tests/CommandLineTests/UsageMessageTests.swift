// What pwtui says when it is used wrongly or cannot go on (issue 9, fixes 6, 8 and 13): a word
// that looks like an option is a usage error for every command (never the help with exit 0),
// `--` lets such a word through, an unknown command is named, and the messages name what works
// and only files that exist.

import Foundation
import Testing

@Suite("Usage errors and messages")
struct UsageMessageTests {
    /// Every command and subcommand, with what it needs besides the stray word.
    static let commands: [[String]] = [
        ["add", "--username", "x"], ["get"], ["pick"], ["list"], ["suggest"], ["edit"], ["rm"],
        ["equivalents", "add", "a.example"], ["equivalents", "rm"], ["equivalents", "list"], ["git-credential"],
        ["init"],
        ["passwd"], ["configure"], ["unlock"], ["agent", "start"], ["agent", "stop"], ["agent", "status"],
        ["agent", "lock"],
        ["demo"], [],
    ]

    @Test(
        "a dash-leading word is an unknown option (64) for every command, even one with an h in it, never the help and exit 0",
        arguments: ["-github.com", "-weird.example", "-x1"])
    func dashLeadingWords(word: String) throws {
        let sandbox = try Sandbox.withVault()
        for command in Self.commands {
            let result = try sandbox.pwtui(command + [word], password: .none)
            #expect(result.exitCode == 64, "\(result)")
            #expect(result.err.contains("unknown option '\(word)'") && result.err.contains("after '--'"), "\(result)")
            #expect(!result.out.contains("OVERVIEW") && !result.err.contains("OVERVIEW"), "not the help: \(result)")
        }
        #expect(try sandbox.listJSON().isEmpty, "nothing was added")
    }

    @Test("after --, a dash-leading word is a service: add stores it, get finds it; a negative number stays a value")
    func doubleDash() throws {
        let sandbox = try Sandbox.withVault()
        // The password's option comes before `--`: after it, every word is a service.
        let password: [Int32: Redirect] = [3: .text(sandbox.password)]
        let add = try sandbox.pwtui(
            ["add", "--username", "x", "--master-password-fd", "3", "--", "-weird.example"],
            password: .none, stdin: "dash-secret", descriptors: password)
        #expect(add.exitCode == 0, "\(add)")
        let get = try sandbox.pwtui(
            ["get", "--master-password-fd", "3", "--", "-weird.example"], password: .none, descriptors: password)
        #expect(get.exitCode == 0 && get.out == "dash-secret\n", "\(get)")
        let ranked = try sandbox.pwtui(["add", "--rank", "-10", "--username", "y", "rank.example"], stdin: "s")
        #expect(ranked.exitCode == 0, "\(ranked)")
        let listed = try sandbox.listJSON()
        #expect(listed.contains { ($0["services"] as? [String]) == ["-weird.example"] })
        #expect(listed.contains { $0["username"] as? String == "y" && $0["rank"] as? Int == -10 })
    }

    @Test("an unknown command is named as one, with the commands there are")
    func unknownCommand() throws {
        let sandbox = try Sandbox()
        // `show` was the example until it became a command.
        let view = try sandbox.pwtui(["view", "github.com"], password: .none)
        #expect(view.exitCode == 64)
        #expect(view.err.contains("unknown command 'view'") && view.err.contains("list"), "\(view)")
        #expect(!view.err.contains("Unexpected argument"), "\(view)")
        let agent = try sandbox.pwtui(["agent", "restart"], password: .none)
        #expect(agent.exitCode == 64 && agent.err.contains("unknown command 'restart' for pwtui agent"), "\(agent)")
        #expect(agent.err.contains("start, stop, status, lock"), "\(agent)")
    }

    @Test("--help starts with plain pwtui and init; edit's options and equivalents' arguments are explained")
    func helpTexts() throws {
        let sandbox = try Sandbox()
        let root = try sandbox.pwtui(["--help"], password: .none)
        #expect(root.exitCode == 0)
        let usage = try #require(root.out.range(of: "USAGE:"), "\(root)")
        let afterUsage = root.out[usage.upperBound...]
        let firstLine = afterUsage.prefix { $0 != "\n" }
        #expect(
            firstLine.contains("pwtui ") && firstLine.contains("picker") && firstLine.contains("wizard"), "\(root.out)")
        #expect(afterUsage.split(separator: "\n").dropFirst().first?.contains("pwtui init") == true, "\(root.out)")
        let subcommands = try #require(root.out.range(of: "SUBCOMMANDS:"))
        let firstCommand = root.out[subcommands.upperBound...].split(separator: "\n").first?.trimmingCharacters(
            in: .whitespaces)
        #expect(firstCommand?.hasPrefix("init ") == true, "\(root.out)")

        let edit = try sandbox.pwtui(["edit", "--help"], password: .none).out
        for option in ["--title", "--username", "--rank", "--notes"] {
            let line = edit.split(separator: "\n").first {
                $0.trimmingCharacters(in: .whitespaces).hasPrefix(option + " <")
            }
            let text =
                line.map { $0.split(separator: ">", maxSplits: 1).last?.trimmingCharacters(in: .whitespaces) ?? "" }
                ?? ""
            #expect(text.count > 10, "\(option) has a help text: \(edit)")
        }
        for subcommand in ["add", "rm"] {
            let help = try sandbox.pwtui(["equivalents", subcommand, "--help"], password: .none).out
            let argument = help.split(separator: "\n").first { $0.contains("<domains>") && !$0.contains("USAGE") }
            #expect(
                argument.map { $0.count > 30 } == true, "equivalents \(subcommand)'s <domains> is explained: \(help)")
        }
    }

    @Test(
        "every command's help reads in whole sentences at 80 columns: no line broken by hand mid-sentence (issue 26, 11)"
    )
    func helpHasNoHardBreaks() throws {
        let sandbox = try Sandbox()
        let root = try sandbox.pwtui(["--help"], password: .none).out
        // Every "... SUBCOMMANDS:" section lists "  name   abstract".
        let listed = root.components(separatedBy: "SUBCOMMANDS:").dropFirst().flatMap { $0.split(separator: "\n") }
            .compactMap {
                $0.hasPrefix("  ") && !$0.hasPrefix("   ") ? $0.split(separator: " ").first.map(String.init) : nil
            }
        #expect(listed.count > 15, "\(root)")
        for command in listed {
            let help = try sandbox.pwtui(["help", command], password: .none, environment: ["COLUMNS": "80"]).out
            let prose =
                help.components(separatedBy: "USAGE:").first?.split(separator: "\n", omittingEmptySubsequences: false)
                ?? []
            for (line, next) in zip(prose, prose.dropFirst()) {
                // A line ArgumentParser wrapped is nearly full; a short one followed by the rest of
                // its sentence was broken in the source.
                let broken =
                    line.count < 60 && !line.hasPrefix(" ") && !line.isEmpty
                    && !".:;)".contains(line.last ?? ".") && next.first?.isLowercase == true
                #expect(!broken, "pwtui help \(command): '\(line)' / '\(next)'")
            }
        }
    }

    @Test("--idle-timeout 0 is explained by the agent's own message, not answered with the root usage")
    func idleTimeoutZero() throws {
        let sandbox = try Sandbox()
        let result = try sandbox.pwtui(["agent", "start", "--idle-timeout", "0"], password: .none)
        #expect(result.exitCode == 64)
        #expect(result.err.contains("--idle-timeout 0") && result.err.contains("lock"), "\(result)")
        #expect(!result.err.contains("Usage: pwtui <subcommand>"), "\(result)")
        let bad = try sandbox.pwtui(["agent", "start", "--idle-timeout", "soon"], password: .none)
        #expect(bad.exitCode == 64 && !bad.err.contains("Usage: pwtui <subcommand>"), "\(bad)")
    }

    @Test("init and passwd with no terminal name the descriptor option that works, not stdin")
    func noTerminalNamesTheOption() throws {
        let sandbox = try Sandbox()
        let initialise = try sandbox.pwtui(["init", "--kdf", "interactive"], password: .none, stdin: "piped-password")
        #expect(initialise.exitCode == 75, "\(initialise)")
        #expect(initialise.err.contains("--master-password-fd") && !initialise.err.contains("stdin"), "\(initialise)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.vault))
        try sandbox.initVault()
        let passwd = try sandbox.pwtui(["passwd"], stdin: "piped-password")
        #expect(passwd.exitCode == 75, "\(passwd)")
        #expect(passwd.err.contains("--new-master-password-fd") && !passwd.err.contains("stdin"), "\(passwd)")
    }

    @Test("a damaged vault's message names .bak only when there is one; a directory is called a directory")
    func damagedAndDirectory() throws {
        let sandbox = try Sandbox.withVault()
        try flipByte(at: 100, in: sandbox.vault)
        let lone = try sandbox.pwtui(["get", "github.com"])
        #expect(lone.exitCode == 65 && lone.err.contains("damaged"), "\(lone)")
        #expect(!lone.err.contains(".bak"), "there is no .bak yet: \(lone)")
        try FileManager.default.copyItem(atPath: sandbox.vault, toPath: sandbox.vault + ".bak")
        let withBackup = try sandbox.pwtui(["get", "github.com"])
        #expect(withBackup.err.contains(sandbox.vault + ".bak"), "\(withBackup)")

        for arguments in [["get", "github.com"], ["list"], ["init"]] {
            let result = try sandbox.pwtui(arguments + ["--vault", sandbox.vaultDirectory])
            #expect(result.exitCode != 0)
            #expect(result.err.contains("\(sandbox.vaultDirectory) is a directory"), "\(result)")
            #expect(!result.err.contains("damaged") && !result.err.contains(".bak"), "\(result)")
        }
    }
}
