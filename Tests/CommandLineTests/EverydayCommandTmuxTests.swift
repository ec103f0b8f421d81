// Issue 16's commands with a terminal: `rm` naming several credentials opens the picker over
// them, `add` of an account already there asks whether to update it, and `add --generate` puts the
// new password on the clipboard — each run in bash under tmux, its exit status written to a file.

import Foundation
import Testing

@Suite("everyday commands on a terminal")
struct EverydayCommandTmuxTests {
    /// Runs `command` (pwtui's arguments, the master password on fd 3, `stdin` from a file: never
    /// on the screen) in the shell; its exit status goes to the returned file.
    func run(_ command: String, in tmux: TmuxSession, _ sandbox: Sandbox, stdin: String? = nil) throws -> String {
        let pwtui = try Binaries.require(Binaries.pwtui)
        let rc = sandbox.scratch + "/" + UUID().uuidString + ".rc"
        var input = ""
        if let stdin {
            let file = sandbox.scratch + "/" + UUID().uuidString + ".in"
            try (stdin + "\n").write(toFile: file, atomically: true, encoding: .utf8)
            input = " < '\(file)'"
        }
        try tmux.enter(
            "'\(pwtui)' \(command) --master-password-fd 3 3<<<'\(sandbox.password)'\(input); echo RC=$? > '\(rc)'")
        return rc
    }

    @Test("rm shop.example names two: the picker lists only them; the one chosen is asked about and deleted")
    func removePicksAmongSeveral() throws {
        let sandbox = try Sandbox.withVault(
            Login(["shop.example"], username: "bob", secret: "b"),
            Login(["shop.example"], username: "carol", secret: "c"),
            Login(["site.example"], username: "alice", secret: "a"))
        let tmux = try TmuxSession.shellReady(sandbox: sandbox)
        let rc = try run("rm shop.example", in: tmux, sandbox)
        let list = try tmux.requirePane("the picker over the two") {
            $0.contains("bob") && $0.contains("carol") && $0.contains("credentials")
        }
        #expect(!list.contains("alice"), "only those named: \(list)")
        try tmux.type("carol")
        try tmux.press("Enter")
        try tmux.requirePane("asked before deleting") { $0.contains("Delete shop.example (carol, shop.example)?") }
        try tmux.enter("y")
        #expect(commandResult(rc) == "RC=0\n", "\(tmux.captures.last ?? "")")
        #expect(try sandbox.listJSON().compactMap { $0["username"] as? String }.sorted() == ["alice", "bob"])
    }

    @Test("add of an account already there: yes updates its password (the same id, still one credential)")
    func duplicateAddUpdates() throws {
        let sandbox = try Sandbox.withVault(Login(["github.com"], username: "alice", secret: "old-password"))
        let id = try #require(try sandbox.listJSON().first?["id"] as? String)
        let tmux = try TmuxSession.shellReady(sandbox: sandbox)
        let rc = try run("add github.com --username alice", in: tmux, sandbox, stdin: "new-password")
        try tmux.requirePane("the offer") {
            $0.contains("has this service and username already") && $0.contains("Update its password instead")
        }
        try tmux.enter("y")
        let done = try tmux.requirePane("the id printed") { $0.contains(id) }
        #expect(commandResult(rc) == "RC=0\n", "\(done)")
        #expect(try sandbox.listJSON().count == 1)
        #expect(try sandbox.pwtui(["get", "github.com"]).out == "new-password\n")
        for screen in tmux.captures { #expect(!screen.contains("new-password"), "\(screen)") }
    }

    @Test("add --generate on a terminal: the id on the screen, the password on the clipboard (never on the screen)")
    func generatedToClipboard() throws {
        let sandbox = try Sandbox.withVault()
        try sandbox.writeConfig("clipboard_timeout = 2\n")
        let tmux = try TmuxSession.shellReady(sandbox: sandbox)
        try tmux.tmux(["set-option", "-g", "set-clipboard", "on"])
        let rc = try run("add gen.example --username u --generate", in: tmux, sandbox)
        try tmux.requirePane { $0.contains("Copied the generated password of gen.example (u) to the clipboard") }
        #expect(commandResult(rc) == "RC=0\n")
        let id = try #require(try sandbox.listJSON().first?["id"] as? String)
        let password = try sandbox.pwtui(["get", "--id", id]).out.trimmingCharacters(in: .newlines)
        #expect(password.count >= 16)
        #expect(try tmux.tmux(["show-buffer"]).out == password, "the generated password reached tmux's clipboard")
        for screen in tmux.captures { #expect(!screen.contains(password), "\(screen)") }
    }
}
