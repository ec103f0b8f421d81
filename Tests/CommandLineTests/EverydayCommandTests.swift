// Issue 16's commands through the binary: only what needs the process — the exit codes as a shell
// sees them, one case each, and the option checks swift-argument-parser makes. What each prints,
// says and saves (ties, --id, rm and edit by name, duplicate adds, generated passwords, and the
// same through an agent) is tested in process (CommandsTests/EverydayInProcessTests).

import Foundation
import Testing

@Suite("everyday commands: ties, names, duplicates, generated passwords")
struct EverydayCommandTests {
    @Test(
        "exit codes end to end: a tie 0 with the password alone on stdout, rm of several 64, rm of none 1, a duplicate add 64"
    )
    func exitCodes() throws {
        let sandbox = try Sandbox.withVault(
            Login(["github.com"], username: "alice", secret: "alice-pw"),
            Login(["github.com"], username: "bob", secret: "bob-pw"))
        let tie = try sandbox.pwtui(["get", "github.com"])
        #expect(
            tie.exitCode == 0 && ["alice-pw\n", "bob-pw\n"].contains(tie.out) && tie.err.contains("equally well"),
            "\(tie)")
        let several = try sandbox.pwtui(["rm", "github.com", "--yes"])
        #expect(several.exitCode == 64 && several.stdout.isEmpty, "\(several)")
        let none = try sandbox.pwtui(["rm", "site", "--yes"])
        #expect(none.exitCode == 1 && none.err.contains("'site'"), "\(none)")
        let again = try sandbox.pwtui(["add", "github.com", "--username", "alice"], stdin: "second")
        #expect(again.exitCode == 64 && again.err.contains("--force"), "\(again)")
        #expect(try sandbox.listJSON().count == 2)
    }

    @Test("the option checks: --id without a value, add without --username, --print without --generate: 64 each")
    func optionChecks() throws {
        let sandbox = try Sandbox.withVault()
        #expect(try sandbox.pwtui(["get", "github.com", "--id"], password: .none).exitCode == 64)
        let missing = try sandbox.pwtui(["add", "github.com"], stdin: "pw")
        #expect(
            missing.exitCode == 64 && missing.err.contains("--username"),
            "a service still needs its account: \(missing)")
        let typed = try sandbox.pwtui(["add", "third.example", "--username", "u", "--print"], stdin: "typed")
        #expect(typed.exitCode == 64, "--print without --generate: \(typed)")
        #expect(try sandbox.listJSON().isEmpty)
    }
}
