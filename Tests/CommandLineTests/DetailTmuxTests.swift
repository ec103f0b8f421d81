// Seeing a credential on a real terminal: the picker's detail screen (→), where `r` puts the
// password on the screen and `r` again draws dots over it; `show` masked and `--reveal`; and
// `copy`, the clipboard handover without the picker (tmux's paste buffer is the clipboard here,
// as in the picker's own tests).

import Foundation
import Testing

@Suite("Seeing a credential under tmux")
struct DetailTmuxTests {
    func sandbox() throws -> Sandbox {
        let sandbox = try Sandbox.withVault()
        try sandbox.add(
            ["https://github.com/login"], username: "alice", secret: "first-secret", extra: ["--title", "GitHub login"])
        try sandbox.add(["gitlab.com"], username: "carol", secret: "other-secret", extra: ["--title", "GitLab"])
        return sandbox
    }

    @Test("→ in the picker: the master password, then the details masked; r reveals, r again draws dots; Esc, Esc: 130")
    func detailScreenRevealsAndHides() throws {
        let sandbox = try sandbox()
        let tmux = try TmuxSession.shellReady(sandbox: sandbox)
        let pwtui = try Binaries.require(Binaries.pwtui)
        let rc = sandbox.scratch + "/pick.rc"
        try tmux.enter("x=$('\(pwtui)' pick github.com); echo \"RC=$? X=$x\" > '\(rc)'")
        try tmux.requirePane("the list, with the key for details") {
            $0.contains("Matches for github.com") && $0.contains("→ details")
        }
        try tmux.press("Right")
        try tmux.requirePane("the secrets need the vault") {
            $0.contains("Master password:") && $0.contains("To see GitHub login (alice)")
        }
        try tmux.enter(sandbox.password)
        // The whole frame, down to the help bar: a capture can catch one drawn halfway.
        let masked = try tmux.requirePane("the details") {
            $0.contains("pwtui — GitHub login") && $0.contains("Password    ••••••••") && $0.contains("r reveal/hide")
        }
        #expect(masked.contains("https://github.com/login  same-host"), "how it matched github.com:\n\(masked)")
        #expect(masked.contains("r reveal/hide"))
        try tmux.press("r")
        try tmux.requirePane("revealed") { $0.contains("Password    first-secret") }
        try tmux.press("r")
        let hidden = try tmux.requirePane("hidden again") { $0.contains("Password    ••••••••") }
        #expect(!hidden.contains("first-secret"), "dots drawn over it:\n\(hidden)")
        try tmux.press("Escape")
        try tmux.requirePane("back on the list") { $0.contains("Matches for github.com") && !$0.contains("Password ") }
        try tmux.press("Escape")
        #expect(commandResult(rc) == "RC=130 X=\n")
        let shell = try tmux.requirePane("the shell again") { $0.contains("$ ") || $0.contains("# ") }
        #expect(!shell.contains("first-secret"), "nothing of it left on the terminal:\n\(shell)")
    }

    @Test("show on a terminal: dots; show --reveal: the password")
    func showMaskedAndRevealed() throws {
        let sandbox = try sandbox()
        let tmux = try TmuxSession.shellReady(sandbox: sandbox)
        let pwtui = try Binaries.require(Binaries.pwtui)
        let rc = sandbox.scratch + "/show.rc"
        try tmux.enter(
            "'\(pwtui)' show github.com --master-password-fd 3 3<<<'\(sandbox.password)'; echo RC=$? > '\(rc)'")
        let masked = try tmux.requirePane { $0.contains("password    ••••••••  (--reveal shows it)") }
        #expect(commandResult(rc) == "RC=0\n")
        #expect(!masked.contains("first-secret"))
        #expect(masked.contains("username    alice") && masked.contains("services    https://github.com/login"))
        try tmux.enter(
            "clear; '\(pwtui)' show github.com --reveal --master-password-fd 3 3<<<'\(sandbox.password)'; echo RC=$? > '\(rc)2'"
        )
        try tmux.requirePane { $0.contains("password    first-secret") }
        #expect(commandResult(rc + "2") == "RC=0\n")
    }

    @Test(
        "copy github.com: the password on the clipboard, not on stdout or the screen, and cleared after clipboard_timeout"
    )
    func copyToTheClipboard() throws {
        let sandbox = try sandbox()
        try sandbox.writeConfig("clipboard_timeout = 2\n")
        let tmux = try TmuxSession.shellReady(sandbox: sandbox)
        try tmux.tmux(["set-option", "-g", "set-clipboard", "on"])
        let pwtui = try Binaries.require(Binaries.pwtui)
        let rc = sandbox.scratch + "/copy.rc"
        let out = sandbox.scratch + "/copy.out"
        // stdout to a file: `get` would write there; `copy` still copies.
        try tmux.enter(
            "'\(pwtui)' copy github.com --master-password-fd 3 3<<<'\(sandbox.password)' > '\(out)'; echo RC=$? > '\(rc)'"
        )
        try tmux.requirePane {
            $0.contains("Copied the password of GitHub login (alice) to the clipboard; cleared in 2 s")
        }
        #expect(commandResult(rc) == "RC=0\n")
        #expect(try tmux.tmux(["show-buffer"]).out == "first-secret")
        #expect(readBytes(out) == [], "nothing on stdout")
        let cleared = try poll(timeout: .seconds(10), every: .milliseconds(200)) {
            try !tmux.tmux(["list-buffers", "-F", "#{buffer_name}"]).out.contains("pwtui-")
        }
        #expect(cleared, "pwtui's paste buffer is gone after the timeout")
        for screen in tmux.captures { #expect(!screen.contains("first-secret"), "\(screen)") }
    }
}
