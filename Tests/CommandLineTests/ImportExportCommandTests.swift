// `pwtui import` and `pwtui export` through the binary: only what needs the process — the exit
// codes a shell sees, export refusing a real terminal (script(1)), and a pass store decrypted by
// the real gpg. One save per import, dry runs, refused entries, items without a site, the round
// trip and export asking even when the agent is unlocked are tested in process
// (CommandsTests/ImportExportInProcessTests and ImportExportMoreInProcessTests).

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

    @Test(
        "exit codes end to end: import 0, an entry that cannot be imported 65, export onto a file without --force 64, add with no name 64"
    )
    func exitCodes() throws {
        let sandbox = try Sandbox.withVault()
        let imported = try sandbox.pwtui(["import", Self.samples + "/chrome.csv"])
        #expect(imported.exitCode == 0 && imported.out.contains("3 added"), "\(imported)")
        let file = try write("name,url,username,password\nC,https://c.example/,u,pc,extra\n", in: sandbox)
        let refused = try sandbox.pwtui(["import", file])
        #expect(refused.exitCode == 65 && refused.err.contains("line 2"), "\(refused)")
        let output = sandbox.scratch + "/out.csv"
        #expect(try sandbox.pwtui(["export", "--format", "csv", "--output", output]).exitCode == 0)
        let again = try sandbox.pwtui(["export", "--format", "csv", "--output", output])
        #expect(again.exitCode == 64 && again.err.contains("--force"), "\(again)")
        let unnamed = try sandbox.pwtui(["add"], stdin: "x\n")
        #expect(unnamed.exitCode == 64 && unnamed.err.contains("--title"), "\(unnamed)")
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
