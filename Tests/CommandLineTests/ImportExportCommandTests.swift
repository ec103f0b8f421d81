// `pwtui import` and `pwtui export` through the binary: one save for a whole import, a dry run
// and a refused import that change nothing, exports written 0600 and never to a terminal, and
// an export imported into another vault giving the same credentials.

import Foundation
import Testing

@Suite("import and export through the binary")
struct ImportExportCommandTests {
    static let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("InterchangeTests/Samples").path

    func write(_ text: String, in sandbox: Sandbox, name: String = "export.csv") throws -> String {
        let path = sandbox.scratch + "/" + name
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("an import is one save: the backup is the vault as it was before; every password is there")
    func oneSave() throws {
        let sandbox = try Sandbox.withVault(Login(["example.net"], username: "zed", secret: "z"))
        let before = try #require(readBytes(sandbox.vault))
        let result = try sandbox.pwtui(["import", Self.samples + "/chrome.csv"])
        #expect(result.exitCode == 0, "\(result)")
        #expect(
            result.out.contains("Imported from Chrome, Edge or Brave CSV") && result.out.contains("3 added"),
            "\(result)")
        #expect(
            result.err.contains("holds every password in plaintext") && result.err.contains("shred -u"), "\(result)")
        #expect(readBytes(sandbox.vault + ".bak") == before, "one save: the backup is the file before the import")
        #expect(try sandbox.listJSON().count == 4)
        #expect(try sandbox.pwtui(["get", "github.com"]).out == "gh,pass\"1\n")
        #expect(try sandbox.pwtui(["get", "bank.example.co.uk"]).out == "bänk pass\n")
        for output in [result.out, result.err] {
            #expect(!output.contains("gh,pass") && !output.contains("bänk"), "no secret printed: \(result)")
        }

        let again = try sandbox.pwtui(["import", Self.samples + "/chrome.csv"])
        #expect(again.exitCode == 0 && again.out.contains("3 skipped") && again.out.contains("duplicate"), "\(again)")
        #expect(try sandbox.listJSON().count == 4)
    }

    @Test("--dry-run lists what would happen and why, and leaves every file as it was")
    func dryRun() throws {
        let sandbox = try Sandbox.withVault(
            Login(["https://github.com/login"], username: "alice@example.com", secret: "older"))
        let before = try sandbox.vaultDirectoryFiles()
        let result = try sandbox.pwtui(["import", Self.samples + "/chrome.csv", "--dry-run"])
        #expect(result.exitCode == 0, "\(result)")
        #expect(result.out.contains("add       line 3: accounts.google.com"), "\(result)")
        #expect(
            result.out.contains("skip      line 2: github.com")
                && result.out.contains("another password; --on-conflict"), "\(result)")
        #expect(
            result.out.contains("Dry run, nothing changed") && result.out.contains("2 to add, 1 to skip"), "\(result)")
        #expect(try sandbox.vaultDirectoryFiles() == before)

        let update = try sandbox.pwtui(["import", Self.samples + "/chrome.csv", "--on-conflict", "update"])
        #expect(update.exitCode == 0 && update.out.contains("2 added, 1 updated"), "\(update)")
        #expect(try sandbox.pwtui(["get", "github.com"]).out == "gh,pass\"1\n")
        let history = try sandbox.pwtui(["history", "github.com", "--reveal"])
        #expect(history.out.contains("older"), "the replaced password is in the history: \(history)")
    }

    @Test(
        "an entry that cannot be imported: exit 65 naming its line, nothing changed; --skip-invalid imports the rest; no site is an item without one"
    )
    func invalidEntries() throws {
        let sandbox = try Sandbox.withVault()
        let file = try write(
            "name,url,username,password\nA,https://a.example/,u,pa\nNo site,,u,secret-b\nC,https://c.example/,u,pc,extra\n",
            in: sandbox)
        let before = try sandbox.vaultDirectoryFiles()
        let refused = try sandbox.pwtui(["import", file])
        #expect(refused.exitCode == 65, "\(refused)")
        #expect(refused.err.contains("1 of 3 entries cannot be imported, so nothing was"), "\(refused)")
        #expect(refused.err.contains("line 4: 5 fields where the header has 4"), "\(refused)")
        #expect(!refused.err.contains("secret-b"), "\(refused)")
        #expect(try sandbox.vaultDirectoryFiles() == before)

        let skipping = try sandbox.pwtui(["import", file, "--skip-invalid"])
        #expect(skipping.exitCode == 0 && skipping.out.contains("2 added, 1 not importable"), "\(skipping)")
        #expect(try sandbox.listJSON().count == 2)
        #expect(try sandbox.pwtui(["show", "No site", "--reveal"]).out.contains("secret-b"))

        let unbalanced = try write(
            "name,url,username,password\nA,https://a.example/,u,\"pa\n", in: sandbox, name: "open.csv")
        let broken = try sandbox.pwtui(["import", unbalanced])
        #expect(broken.exitCode == 65 && broken.err.contains("open.csv:line 2, column 24"), "\(broken)")
    }

    @Test("--dry-run exits as the import would (65 with an entry that cannot be imported), and shows no URL's password")
    func dryRunExitCode() throws {
        let sandbox = try Sandbox.withVault()
        let file = try write(
            "name,url,username,password\nA,https://bob:hunter2@a.example/,bob,pa\nC,https://c.example/,u,pc,extra\n",
            in: sandbox)
        let dry = try sandbox.pwtui(["import", file, "--dry-run"])
        #expect(dry.exitCode == 65, "\(dry)")
        #expect(
            dry.out.contains("Dry run, nothing changed") && dry.err.contains("so the import would change nothing"),
            "\(dry)")
        #expect(!dry.out.contains("hunter2") && !dry.err.contains("hunter2"), "\(dry)")
        #expect(dry.out.contains("https://…@a.example/"), "\(dry)")
        let skipping = try sandbox.pwtui(["import", file, "--dry-run", "--skip-invalid"])
        #expect(skipping.exitCode == 0, "\(skipping)")
    }

    @Test(
        "an item without a site: add --title, found by its title and id (show, get TITLE, get --id, list, rm), never for a service"
    )
    func sitelessItem() throws {
        let sandbox = try Sandbox.withVault(Login(["home.example"], username: "kim", secret: "site-pw"))
        let add = try sandbox.pwtui(["add", "--title", "Home Wi-Fi"], stdin: "wifi-pass\n")
        #expect(add.exitCode == 0, "\(add)")
        let id = add.out.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try sandbox.pwtui(["get", "--id", String(id.prefix(8))]).out == "wifi-pass\n")
        #expect(
            try sandbox.pwtui(["get", "home wi-fi"]).out == "wifi-pass\n",
            "a title is no service: get finds the item by it")
        #expect(try sandbox.pwtui(["add", "--title", "Router"], stdin: "router-pass\n").exitCode == 0)
        #expect(
            try sandbox.pwtui(["get", "router"]).out == "router-pass\n", "one word: no host matches, so the title does")
        let nothing = try sandbox.pwtui(["get", "nowhere"])
        #expect(nothing.exitCode == 1 && nothing.err.contains("nor has it as its title"), "\(nothing)")
        // Read as a title, a pasted user:password@host is still never repeated.
        let pasted = try sandbox.pwtui(["get", "bob:hunter9@host.example"])
        #expect(pasted.exitCode == 1 && !pasted.err.contains("hunter9"), "\(pasted)")
        let shownPasted = try sandbox.pwtui(["show", "bob:hunter9@host.example"])
        #expect(shownPasted.exitCode == 1 && !shownPasted.err.contains("hunter9"), "\(shownPasted)")
        let shown = try sandbox.pwtui(["show", "Home Wi-Fi"])
        #expect(shown.exitCode == 0 && shown.out.contains("Home Wi-Fi") && !shown.out.contains("wifi-pass"), "\(shown)")
        let list = try sandbox.pwtui(["list"])
        #expect(list.out.contains("(no site)"), "\(list)")
        #expect(try sandbox.pwtui(["get", "home.example"]).out == "site-pw\n")
        #expect(try sandbox.pwtui(["rm", "Home Wi-Fi", "--yes"]).exitCode == 0)
        #expect(try sandbox.listJSON().count == 2)
        let unnamed = try sandbox.pwtui(["add"], stdin: "x\n")
        #expect(unnamed.exitCode == 64 && unnamed.err.contains("--title"), "\(unnamed)")
    }

    @Test("the reminder to delete the export is quoted for the shell")
    func shredReminderQuoted() throws {
        let sandbox = try Sandbox.withVault()
        let file = try write(
            "name,url,username,password\nA,https://a.example/,u,pa\n", in: sandbox, name: "Chrome Passwords.csv")
        let result = try sandbox.pwtui(["import", file])
        #expect(result.exitCode == 0, "\(result)")
        #expect(result.err.contains("(shred -u '\(file)')"), "\(result)")
    }

    @Test(
        "export: 0600, refuses to replace a file without --force, to stdout when piped; imported elsewhere it is the same vault"
    )
    func exportRoundTrip() throws {
        let sandbox = try Sandbox.withVault(
            Login(["https://github.com/login", "gist.github.com"], username: "alice", secret: "gh \"pw\", 1"),
            Login(["example.org"], username: "ünïcode", secret: "ex-pw"))
        try #require(try sandbox.pwtui(["edit", "example.org", "--notes", "line 1\nline 2, \"quoted\""]).exitCode == 0)
        let output = sandbox.scratch + "/out.json"
        let export = try sandbox.pwtui(["export", "--format", "bitwarden-json", "--output", output])
        #expect(
            export.exitCode == 0 && export.err.contains("Exported 2 credentials") && export.err.contains("plaintext"),
            "\(export)")
        var info = stat()
        #expect(stat(output, &info) == 0 && info.st_mode & 0o777 == 0o600)
        #expect(!export.out.contains("gh"), "nothing on stdout with --output: \(export)")
        let again = try sandbox.pwtui(["export", "--format", "csv", "--output", output])
        #expect(again.exitCode == 64 && again.err.contains("--force"), "\(again)")
        let piped = try sandbox.pwtui(["export", "--format", "csv"])
        #expect(piped.exitCode == 0 && piped.out.hasPrefix("\"title\",\"services\""), "\(piped)")

        let other = sandbox.scratch + "/other.pwtui"
        try sandbox.initVault(at: other)
        let imported = try sandbox.pwtui(["import", output, "--vault", other])
        #expect(imported.exitCode == 0 && imported.out.contains("2 added"), "\(imported)")
        let strip = { (list: [[String: Any]]) in
            list.map { entry in
                ["title", "username", "services", "notes"].map { "\(entry[$0] ?? "")" }.joined(separator: "|")
            }.sorted()
        }
        #expect(strip(try sandbox.listJSON(vault: other)) == strip(try sandbox.listJSON()))
        #expect(try sandbox.pwtui(["get", "github.com", "--vault", other]).out == "gh \"pw\", 1\n")
    }

    @Test("export asks for the master password even when the agent is unlocked")
    func exportAsksEvenUnlocked() throws {
        let sandbox = try Sandbox.withVault(Login(["example.org"], username: "u", secret: "ex-pw"))
        try sandbox.startUnlockedAgent()
        defer { sandbox.stopAgent() }
        #expect(try sandbox.pwtui(["get", "example.org"], password: .none).out == "ex-pw\n", "the agent answers get")
        let export = try sandbox.pwtui(["export", "--format", "csv"], password: .none)
        #expect(export.exitCode != 0 && export.stdout.isEmpty, "no password given, no export: \(export)")
        #expect(try sandbox.pwtui(["export", "--format", "csv"]).exitCode == 0)
    }

    @Test("export refuses a terminal as its output")
    func exportRefusesTerminal() throws {
        let sandbox = try Sandbox.withVault(Login(["example.org"], username: "u", secret: "ex-pw"))
        let pwtui = try Binaries.require(Binaries.pwtui)
        let passwordFile = try write(sandbox.password + "\n", in: sandbox, name: "mp")
        // script(1) gives the command a terminal for stdout.
        let result = try sandbox.run(
            "/usr/bin/script",
            [
                "-qec", "'\(pwtui)' export --format csv --master-password-fd 3 3<'\(passwordFile)'; echo RC=$?",
                "/dev/null",
            ])
        #expect(result.out.contains("not written to a terminal") && result.out.contains("RC=64"), "\(result)")
        #expect(!result.out.contains("ex-pw"), "\(result)")
    }
}

@Suite("import of a pass store through the real gpg")
struct PassStoreImportTests {
    /// Runs gpg with the test's own home, failing the test when it fails.
    func gpg(_ sandbox: Sandbox, _ home: String, _ arguments: [String], stdin: String? = nil) throws {
        let result = try sandbox.run(
            "/usr/bin/env", ["gpg", "--homedir", home, "--batch", "--quiet"] + arguments,
            stdin: stdin.map { .text($0) })
        try #require(result.exitCode == 0, "gpg \(arguments): \(result)")
    }

    @Test(
        "entries encrypted to a key of the user's are decrypted by their gpg, the site and login read from lines and paths"
    )
    func realStore() throws {
        let sandbox = try Sandbox.withVault()
        let home = sandbox.root + "/gnupg"
        try FileManager.default.createDirectory(
            atPath: home, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer { _ = try? sandbox.run("/usr/bin/env", ["gpgconf", "--homedir", home, "--kill", "gpg-agent"]) }
        try gpg(
            sandbox, home,
            ["--passphrase", "", "--quick-gen-key", "pwtui test <pass@example.com>", "default", "default", "never"])
        let store = sandbox.scratch + "/password-store"
        try FileManager.default.createDirectory(
            atPath: store + "/Email/fastmail.com", withIntermediateDirectories: true)
        try "pass@example.com\n".write(toFile: store + "/.gpg-id", atomically: true, encoding: .utf8)
        let entries = [
            "github.com": "gh-pass\nlogin: alice\notpauth://totp/GitHub:alice?secret=JBSWY3DPEHPK3PXP\nrecovery: 1111",
            "Email/fastmail.com/alice": "fm-päss",
        ]
        for (name, text) in entries {
            // What `pass insert -m` does: the text, encrypted to the store's key.
            try gpg(
                sandbox, home,
                ["--yes", "--encrypt", "--recipient", "pass@example.com", "--output", store + "/" + name + ".gpg"],
                stdin: text)
        }
        let result = try sandbox.pwtui(["import", store], environment: ["GNUPGHOME": home])
        #expect(result.exitCode == 0 && result.out.contains("2 added"), "\(result)")
        #expect(!result.err.contains("plaintext"), "a pass store is not a plaintext export: \(result)")
        #expect(try sandbox.pwtui(["get", "github.com", "--field", "username"]).out == "alice\n")
        #expect(try sandbox.pwtui(["get", "github.com"]).out == "gh-pass\n")
        #expect(try sandbox.pwtui(["get", "fastmail.com"]).out == "fm-päss\n")
        let code = try sandbox.pwtui(["totp", "github.com"])
        #expect(code.exitCode == 0 && code.out.count == 7, "\(code)")
        let shown = try sandbox.pwtui(["show", "github.com"])
        #expect(shown.out.contains("recovery: 1111"), "other lines are kept in the notes: \(shown)")

        // Without the key, gpg fails: each entry is refused by its path, nothing imported.
        let other = sandbox.root + "/empty-gnupg"
        try FileManager.default.createDirectory(
            atPath: other, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer { _ = try? sandbox.run("/usr/bin/env", ["gpgconf", "--homedir", other, "--kill", "gpg-agent"]) }
        let fresh = sandbox.scratch + "/other.pwtui"
        try sandbox.initVault(at: fresh)
        let refused = try sandbox.pwtui(["import", store, "--vault", fresh], environment: ["GNUPGHOME": other])
        #expect(refused.exitCode == 65 && refused.err.contains("github.com: gpg could not decrypt it"), "\(refused)")
    }
}
