// git's helper on a person's terminal (issue 38), with real git cloning over HTTP from a test
// server and the terminal a tmux pane: the two dead ends a new user hit. Esc on a picker with
// nothing for the host made git quit ("credential helper 'pwtui' told us to quit"), so git never
// asked and never stored the login; after the server's password changed, the only offer was to
// delete the saved credential.

import Foundation
import Testing
#if canImport(Glibc)
    import Glibc
#endif

@Suite("git's helper on a terminal (tmux, real git over HTTP)")
struct GitTerminalTmuxTests {
    /// `git clone URL DIR` typed into the pane, pwtui the only helper (through the agent the
    /// test unlocked), git's own prompt on the terminal (no askpass); its status in `result`.
    static func cloneLine(_ url: String, into directory: String, result: String) throws -> String {
        let pwtui = try Binaries.require(Binaries.pwtui)
        return "env -u GIT_ASKPASS -u SSH_ASKPASS GIT_CONFIG_NOSYSTEM=1 git -c credential.helper= "
            + "-c credential.helper='!\(pwtui) git-credential' clone -q '\(url)' '\(directory)'; "
            + "echo \"RC=$?\" > '\(result)'"
    }

    @Test("Esc on a picker with nothing for the host lets git ask on the terminal, and its store saves the login")
    func escapeLetsGitPrompt() throws {
        let sandbox = try Sandbox.withVault(Login(["other.example"], username: "kim", secret: "other-pw"))
        let (url, origin, server) = try GitCredentialTests().server(sandbox)
        defer { server.signal(SIGKILL) }
        try sandbox.startUnlockedAgent()
        defer { sandbox.stopAgent() }
        let tmux = try TmuxSession.shellReady(sandbox: sandbox)
        let result = sandbox.scratch + "/clone.rc"
        try tmux.enter(try Self.cloneLine(url, into: sandbox.root + "/clone", result: result))
        try tmux.requirePane("the picker opens for the host") { $0.contains("Matches for") }
        try tmux.press("Escape")
        try tmux.requirePane("git asks for the username itself") { $0.contains("Username for") }
        try tmux.enter("alice")
        try tmux.requirePane("and the password") { $0.contains("Password for") }
        try tmux.enter("git-secret")
        let status = commandResult(result, timeout: .seconds(30))
        #expect(status == "RC=0\n", "\(status ?? "no end") \(tmux.captures.last ?? "")")
        #expect(!(tmux.captures.last ?? "").contains("told us to quit"))
        let saved = try sandbox.listJSON().filter { $0["username"] as? String == "alice" }
        #expect(
            saved.map { ($0["services"] as? [String]) ?? [] } == [[origin]], "git's store saved the login: \(saved)")
    }

    @Test("a password the server rejects is offered for a new one on the terminal; the next clone uses it")
    func rejectedOffersNewPassword() throws {
        let sandbox = try Sandbox.withVault()
        let (url, origin, server) = try GitCredentialTests().server(sandbox)
        defer { server.signal(SIGKILL) }
        let id = try sandbox.add([origin], username: "alice", secret: "outdated")
        try sandbox.startUnlockedAgent()
        defer { sandbox.stopAgent() }
        let tmux = try TmuxSession.shellReady(sandbox: sandbox)
        let result = sandbox.scratch + "/clone.rc"
        try tmux.enter(try Self.cloneLine(url, into: sandbox.root + "/first", result: result))
        try tmux.requirePane("erase offers a new password", timeout: .seconds(30)) {
            $0.contains("Type a new password for")
        }
        try tmux.enter("y")
        try tmux.requirePane("typed without echo") { $0.contains("New password for") }
        try tmux.enter("git-secret")
        try tmux.requirePane("and repeated") { $0.contains("Repeat the password for") }
        try tmux.enter("git-secret")
        let first = commandResult(result, timeout: .seconds(30))
        #expect(first?.hasPrefix("RC=") == true && first != "RC=0\n", "this clone failed: \(first ?? "no end")")
        #expect(!(tmux.captures.last ?? "").contains("git-secret"), "never echoed")
        // The new password is saved with the old one in its history, and the next clone uses it.
        let history = try sandbox.pwtui(["history", String(id.prefix(8)), "--reveal"])
        #expect(history.out.contains("outdated"), "\(history)")
        let again = sandbox.scratch + "/again.rc"
        try tmux.enter(try Self.cloneLine(url, into: sandbox.root + "/again", result: again))
        let second = commandResult(again, timeout: .seconds(30))
        #expect(second == "RC=0\n", "\(second ?? "no end") \(tmux.captures.last ?? "")")
    }
}
