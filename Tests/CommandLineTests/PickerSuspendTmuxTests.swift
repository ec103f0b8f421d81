// Ctrl-Z in the picker, as in every terminal program: raw mode turns it into a key, so pwtui
// itself gives the terminal back and stops its job; `fg` brings the picker back, drawn anew.
// The command runs alone on the shell's line (not `a; b`, where bash would run `b` as soon as
// `a` stops), and its exit status is read after `fg`.

import Foundation
import Testing

@Suite("Picker suspend under tmux")
struct PickerSuspendTmuxTests {
    @Test("Ctrl-Z stops the picker with the shell's screen back; fg redraws it and Enter still chooses")
    func suspendAndResume() throws {
        let sandbox = try Sandbox.withVault()
        try sandbox.add(
            ["https://github.com/login"], username: "alice", secret: "first-secret", extra: ["--title", "GitHub login"])
        try sandbox.add(["gist.github.com"], username: "alice", secret: "second-secret", extra: ["--title", "Gist"])
        let tmux = try TmuxSession.shellReady(sandbox: sandbox)
        let pwtui = try Binaries.require(Binaries.pwtui)
        let out = sandbox.scratch + "/pick.out"
        let rc = sandbox.scratch + "/pick.rc"
        try tmux.enter("'\(pwtui)' pick github.com > '\(out)'")
        try tmux.requirePane { $0.contains("Matches for github.com") && $0.contains("▸ GitHub login") }
        #expect(try alternateScreen(tmux) == true, "the picker draws on the alternate screen")

        try tmux.press("C-z")
        let stopped = try tmux.requirePane("Ctrl-Z stops the job and the shell takes the terminal back") {
            $0.contains("Stopped") && !$0.contains("Matches for github.com")
        }
        #expect(
            stopped.contains("pick github.com"),
            "the shell's own screen is back, with the command line typed\n\(stopped)")
        #expect(try alternateScreen(tmux) == false, "the alternate screen was left")
        // The shell reads and echoes lines again: the terminal is its own.
        try tmux.enter("echo \"still$((20+22))\"")
        try tmux.requirePane("the shell runs a command while the picker is stopped") { $0.contains("still42") }

        try tmux.enter("fg")
        try tmux.requirePane("fg brings the list back, drawn anew") {
            $0.contains("Matches for github.com") && $0.contains("▸ GitHub login") && $0.contains("Gist")
                && !$0.contains("still42")
        }
        #expect(try alternateScreen(tmux) == true)
        try tmux.press("Down")
        try tmux.requirePane("keys reach the picker after the resume") { $0.contains("▸ Gist") }
        try tmux.press("Enter")
        try tmux.requirePane { $0.contains("Master password:") && $0.contains("To use Gist (alice)") }
        try tmux.enter(sandbox.password)
        try tmux.requirePane("the picker ends and the shell prompt is back") { pane in
            let last =
                pane.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.last { !$0.isEmpty } ?? ""
            return !pane.contains("Master password:") && (last.hasSuffix("$") || last.hasSuffix("#"))
        }
        try tmux.enter("echo \"RC=$?\" > '\(rc)'")
        #expect(commandResult(rc, timeout: .seconds(10)) == "RC=0\n")
        #expect(readBytes(out).map { String(decoding: $0, as: UTF8.self) } == "second-secret\n")
        for screen in tmux.captures { #expect(!screen.contains("second-secret"), "\(screen)") }
    }

    @Test(
        "started with SIGTSTP ignored (no job control to resume it), Ctrl-Z leaves the picker running",
        arguments: [
            // Explicitly, and as bash starts a command substitution (x=$(pwtui pick …), the
            // usual form): stopping there would leave a job no `fg` could reach.
            "(trap '' TSTP; exec PWTUI pick github.com > /dev/null)",
            "x=$(PWTUI pick github.com)",
        ])
    func ignoredStopSignal(commandLine: String) throws {
        let sandbox = try Sandbox.withVault()
        try sandbox.add(
            ["https://github.com/login"], username: "alice", secret: "first-secret", extra: ["--title", "GitHub login"])
        try sandbox.add(["gist.github.com"], username: "alice", secret: "second-secret", extra: ["--title", "Gist"])
        let tmux = try TmuxSession.shellReady(sandbox: sandbox)
        let pwtui = try Binaries.require(Binaries.pwtui)
        let rc = sandbox.scratch + "/pick.rc"
        try tmux.enter(commandLine.replacingOccurrences(of: "PWTUI", with: "'\(pwtui)'") + "; echo \"RC=$?\" > '\(rc)'")
        try tmux.requirePane { $0.contains("Matches for github.com") && $0.contains("▸ GitHub login") }
        try tmux.press("C-z")
        try tmux.press("Down")
        try tmux.requirePane("the picker still reads keys after Ctrl-Z") { $0.contains("▸ Gist") }
        #expect(!(tmux.captures.last ?? "").contains("Stopped"))
        try tmux.press("Escape")
        #expect(commandResult(rc, timeout: .seconds(10)) == "RC=130\n")
    }

    /// Whether the pane shows its alternate screen (a full-screen program's) now.
    private func alternateScreen(_ tmux: TmuxSession) throws -> Bool? {
        let answer = try tmux.tmux(["display-message", "-p", "-t", tmux.name, "#{alternate_on}"]).out
            .trimmingCharacters(in: .whitespacesAndNewlines)
        return answer == "1" ? true : answer == "0" ? false : nil
    }
}
