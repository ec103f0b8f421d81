// `--help` groups the commands and shows an example for each; the man page is written from the
// same help and has a section for every command; `make install-files` puts the binary, git's
// link, the completions and the man page in place (issue 16).

import Foundation
import Testing

@Suite("Help, man page and install")
struct ManualPageTests {
    /// The repository: this file is Tests/CommandLineTests/ManualPageTests.swift in it.
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path

    /// Every command a user may type, as paths (["agent", "start"]), from ArgumentParser's own
    /// description of the tool: what the help and the man page must both cover.
    static func commandPaths(_ sandbox: Sandbox) throws -> [[String]] {
        let dump = try sandbox.pwtui(["--experimental-dump-help"], password: .none)
        try #require(dump.exitCode == 0, "\(dump)")
        let root = try #require(try JSONSerialization.jsonObject(with: Data(dump.stdout)) as? [String: Any])
        func visible(_ command: [String: Any]) -> [[String: Any]] {
            (command["subcommands"] as? [[String: Any]] ?? []).filter {
                ($0["shouldDisplay"] as? Bool ?? true) && $0["commandName"] as? String != "help"
            }
        }
        func paths(_ command: [String: Any], _ prefix: [String]) -> [[String]] {
            visible(command).flatMap { sub -> [[String]] in
                let path = prefix + [sub["commandName"] as? String ?? "?"]
                return [path] + paths(sub, path)
            }
        }
        return paths(try #require(root["command"] as? [String: Any]), [])
    }

    @Test("pwtui --help lists every command exactly once, in the groups set up, use, manage, helpers, sync")
    func groupedHelpListsEveryCommandOnce() throws {
        let sandbox = try Sandbox()
        let help = try sandbox.pwtui(["--help"], password: .none)
        #expect(help.exitCode == 0, "\(help)")
        var groups: [String] = []
        var listed: [String] = []
        for line in help.out.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasSuffix(" SUBCOMMANDS:") {
                groups.append(String(line.dropLast(" SUBCOMMANDS:".count)))
            } else if !groups.isEmpty, line.hasPrefix("  "), let first = line.split(separator: " ").first,
                line.dropFirst(2).first != " "
            {
                listed.append(String(first))
            }
        }
        #expect(groups == ["SET UP", "USE", "MANAGE", "HELPERS", "SYNC"], "\(help.out)")
        #expect(!help.out.contains("\nSUBCOMMANDS:"), "no command is left outside a group: \(help.out)")
        let commands = try Self.commandPaths(sandbox).filter { $0.count == 1 }.map { $0[0] }
        #expect(listed.sorted() == commands.sorted(), "every command once: \(listed) vs \(commands)")
        #expect(Set(listed).count == listed.count, "none twice: \(listed)")
        #expect(help.out.contains("--generate-completion-script"), "says how to get completions")
    }

    @Test("every command's help ends with an example that runs that command")
    func everyCommandHasAnExample() throws {
        let sandbox = try Sandbox()
        for path in try Self.commandPaths(sandbox) where path.count == 1 {
            let help = try sandbox.pwtui(["help"] + path, password: .none)
            #expect(help.exitCode == 0, "\(help)")
            let example = try #require(
                help.out.range(of: "Example"), "pwtui help \(path[0]) has an example: \(help.out)")
            let lines = help.out[example.upperBound...].split(separator: "\n").prefix { !$0.hasPrefix("USAGE:") }
            #expect(
                lines.contains { $0.hasPrefix("  ") && $0.contains("pwtui \(path[0])") },
                "an indented command line running \(path[0]): \(help.out)")
        }
    }

    @Test("the man page, written from the help, has a section for every command and subcommand")
    func manPageHasASectionPerCommand() throws {
        let sandbox = try Sandbox()
        let page = try sandbox.run(
            Self.repository + "/Resources/generate-manual.py", [try Binaries.require(Binaries.pwtui)])
        #expect(page.exitCode == 0, "\(page)")
        #expect(page.out.hasPrefix(".TH PWTUI 1 "), "\(page.out.prefix(200))")
        for path in try Self.commandPaths(sandbox) {
            let heading = ".SS \"pwtui \(path.joined(separator: " ").replacingOccurrences(of: "-", with: "\\-"))\""
            let count = page.out.components(separatedBy: heading + "\n").count - 1
            #expect(count == 1, "one section \(heading): \(count)")
        }
        for group in ["SET UP", "USE", "MANAGE", "HELPERS"] {
            #expect(page.out.contains(".SH \"\(group) COMMANDS\"\n"), "a chapter per group: \(group)")
        }
        #expect(page.out.contains("pwtui init \\-\\-vault"), "the examples are in it")
        #expect(!page.out.contains("OTHER COMMANDS"), "no command outside a group")
    }

    @Test("make run takes the picker's cancel (130) as no error, and any other failure as one (issue 26, 11)")
    func makeRunTakesACancel() throws {
        let sandbox = try Sandbox()
        for (code, makeSucceeds) in [(130, true), (0, true), (1, false), (77, false)] {
            let standIn = sandbox.scratch + "/exits-\(code)"
            try "#!/bin/sh\nexit \(code)\n".write(toFile: standIn, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: standIn)
            let run = try sandbox.run(
                "/usr/bin/make", ["-C", Self.repository, "--no-print-directory", "run-built", "PWTUI_BUILT=\(standIn)"])
            #expect((run.exitCode == 0) == makeSucceeds, "pwtui exiting \(code): \(run)")
            #expect(run.err.contains("Error") != makeSucceeds, "\(run)")
        }
    }

    @Test(
        "make install-files PREFIX=… puts the binary, git's link, three completions, the man page, and the Secret Service's program, activation file and user unit in place"
    )
    func installPutsEverythingInPlace() throws {
        let sandbox = try Sandbox()
        let prefix = sandbox.root + "/prefix with space"
        let install = try sandbox.run(
            "/usr/bin/make",
            [
                "-C", Self.repository, "--no-print-directory", "install-files",
                "PREFIX=\(prefix)", "PWTUI_BUILT=\(try Binaries.require(Binaries.pwtui))",
                "SECRET_SERVICE_BUILT=\(try Binaries.require(Binaries.secretService))",
            ])
        #expect(install.exitCode == 0, "\(install)")
        let files = FileManager.default
        #expect(files.isExecutableFile(atPath: prefix + "/bin/pwtui"))
        #expect(try files.destinationOfSymbolicLink(atPath: prefix + "/bin/git-credential-pwtui") == "pwtui")
        let installed = try sandbox.run(prefix + "/bin/git-credential-pwtui", ["--version"])
        #expect(installed.exitCode == 0 && installed.out.contains("0."), "\(installed)")
        // docker's and the askpass programs' names, each the command it names.
        #expect(try files.destinationOfSymbolicLink(atPath: prefix + "/bin/docker-credential-pwtui") == "pwtui")
        #expect(try files.destinationOfSymbolicLink(atPath: prefix + "/bin/pwtui-askpass") == "pwtui")
        let docker = try sandbox.run(prefix + "/bin/docker-credential-pwtui", ["version"])
        #expect(docker.exitCode == 0 && docker.out.hasPrefix("docker-credential-pwtui"), "\(docker)")
        let askpass = try sandbox.run(prefix + "/bin/pwtui-askpass", ["--are you sure (yes/no)? "])
        #expect(askpass.exitCode == 64 && askpass.out.isEmpty && askpass.err.contains("askpass"), "\(askpass)")
        for (path, marker) in [
            ("share/bash-completion/completions/pwtui", "complete"),
            ("share/zsh/site-functions/_pwtui", "#compdef pwtui"),
            ("share/fish/vendor_completions.d/pwtui.fish", "complete -c 'pwtui'"),
            ("share/man/man1/pwtui.1", ".TH PWTUI 1"),
        ] {
            let text = (try? String(contentsOfFile: prefix + "/" + path, encoding: .utf8)) ?? ""
            #expect(text.contains(marker), "\(path) is in place and is what it says")
            #expect(text.contains("git-credential"), "\(path) knows every command")
        }
        // The Secret Service: its program, and the files that start it naming it where it is.
        #expect(files.isExecutableFile(atPath: prefix + "/bin/pwtui-secret-service"))
        for (path, line) in [
            ("share/dbus-1/services/org.freedesktop.secrets.service", "Exec=\"\(prefix)/bin/pwtui-secret-service\""),
            ("share/systemd/user/pwtui-secret-service.service", "ExecStart=\"\(prefix)/bin/pwtui-secret-service\""),
        ] {
            let text = (try? String(contentsOfFile: prefix + "/" + path, encoding: .utf8)) ?? ""
            #expect(text.split(separator: "\n").contains(Substring(line)), "\(path): \(text)")
            #expect(!text.contains("@BINDIR@"), "\(path): \(text)")
        }
        // bash loads its completion and completes a command name from it.
        let bash = try sandbox.run(
            "/usr/bin/bash",
            [
                "-c",
                """
                source "$1/share/bash-completion/completions/pwtui"
                COMP_WORDS=(pwtui equi); COMP_CWORD=1; COMP_LINE="pwtui equi"; COMP_POINT=${#COMP_LINE}
                "$(complete -p pwtui | sed -E 's/.*-F ([^ ]+).*/\\1/')" pwtui equi pwtui
                printf '%s\\n' "${COMPREPLY[@]}"
                """, "bash", prefix,
            ])
        #expect(bash.exitCode == 0 && bash.out.split(separator: "\n").contains("equivalents"), "\(bash)")
    }
}
