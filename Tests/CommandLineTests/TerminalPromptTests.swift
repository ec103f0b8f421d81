// The master-password prompt on a real terminal: tmux runs an interactive bash, the test types
// into it with send-keys and reads the screen with capture-pane. pwtui's stdout goes to a file,
// so what the terminal shows and what the pipeline gets are checked separately.

import Foundation
import Testing

@Suite("Master-password prompt under tmux")
struct TerminalPromptTests {
    private let prompt = "Master password:"

    /// A vault with github.com → s3cret, and a tmux session whose shell has PWTUI_VAULT set.
    private func context() throws -> (Sandbox, TmuxSession) {
        let sandbox = try Sandbox.withVault(Login(["github.com"], username: "alice", secret: "s3cret"))
        let tmux = try TmuxSession.shellReady(sandbox: sandbox)
        return (sandbox, tmux)
    }

    /// Waits for the prompt on the screen and for echo to be off on the terminal. pwtui turns echo
    /// off before it writes the prompt; checking both makes the test independent of that order.
    private func waitForPrompt(_ tmux: TmuxSession, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let prompted = try tmux.waitForPane { $0.contains(prompt) }
        try #require(prompted != nil, "no prompt: \(tmux.captures.last ?? "")", sourceLocation: sourceLocation)
        var modes: Set<String> = []
        let silent = try poll(timeout: .seconds(10)) {
            modes = try tmux.terminalModes()
            return modes.contains("-echo")
        }
        try #require(
            silent, "echo stays on while the master password is asked: \(modes.sorted())",
            sourceLocation: sourceLocation)
    }

    /// Types `pwtui get github.com` into the shell, stdout and exit code to files.
    private func startGet(_ pwtui: String, in tmux: TmuxSession, _ sandbox: Sandbox) throws -> (out: String, rc: String)
    {
        let out = sandbox.scratch + "/get.out", rc = sandbox.scratch + "/get.rc"
        try tmux.enter("'\(pwtui)' get github.com > '\(out)'; echo EXIT=$? > '\(rc)'")
        return (out, rc)
    }

    /// The opening both tests share: `pwtui get github.com` typed into the shell and its prompt
    /// up with echo off, so what the test types next goes to pwtui unseen.
    private func promptedGet(sourceLocation: SourceLocation = #_sourceLocation) throws -> (
        Sandbox, TmuxSession, out: String, rc: String
    ) {
        let (sandbox, tmux) = try context()
        let pwtui = try Binaries.require(Binaries.pwtui, sourceLocation: sourceLocation)
        let (out, rc) = try startGet(pwtui, in: tmux, sandbox)
        try waitForPrompt(tmux, sourceLocation: sourceLocation)
        return (sandbox, tmux, out, rc)
    }

    /// The `EXIT=N` line once pwtui has ended (`why` says what should have ended it).
    private func requireExit(
        _ rc: String, tmux: TmuxSession, _ why: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> String? {
        let finished = poll(timeout: .seconds(15)) {
            readBytes(rc).map { String(decoding: $0, as: UTF8.self).hasSuffix("\n") } ?? false
        }
        try #require(finished, "\(why): \(tmux.captures.last ?? "")", sourceLocation: sourceLocation)
        return readBytes(rc).map { String(decoding: $0, as: UTF8.self) }
    }

    @Test("get asks on the terminal without echo; the secret goes to stdout only")
    func promptWithoutEcho() throws {
        let (sandbox, tmux, out, rc) = try promptedGet()
        try tmux.enter(sandbox.password)

        #expect(try requireExit(rc, tmux: tmux, "pwtui did not finish") == "EXIT=0\n")
        #expect(readBytes(out) == Array("s3cret\n".utf8))

        _ = try tmux.capture()
        for screen in tmux.captures {
            #expect(!screen.contains(sandbox.password), "the typed password is on the screen:\n\(screen)")
            #expect(!screen.contains("s3cret"), "the secret is on the screen:\n\(screen)")
        }
    }

    @Test("Escape at the prompt cancels: exit 130, nothing on stdout, the terminal echoes again")
    func escapeCancels() throws {
        let (sandbox, tmux, out, rc) = try promptedGet()
        try tmux.type("zq-typed-9")  // a few keys first: they are discarded, not echoed, not returned
        try tmux.press("Escape")
        #expect(try requireExit(rc, tmux: tmux, "Escape did not end pwtui") == "EXIT=130\n")
        #expect(readBytes(out) == [], "nothing on stdout after a cancel")

        // The terminal is usable again: the kernel echoes (stty shows echo and canonical mode on)
        // and the shell shows what is typed and runs it.
        let stty = sandbox.scratch + "/stty"
        try tmux.enter("stty -a > '\(stty)'; echo ok-after")
        let after = try tmux.waitForPane { pane in
            pane.split(separator: "\n").contains { $0.trimmingCharacters(in: .whitespaces) == "ok-after" }
        }
        try #require(after != nil, "the shell did not run the next command: \(tmux.captures.last ?? "")")
        #expect(after?.contains("; echo ok-after") == true, "the typed command is shown")
        let settings = Set(
            readBytes(stty).map { String(decoding: $0, as: UTF8.self) }?
                .split(whereSeparator: { $0 == " " || $0 == ";" || $0 == "\n" }).map(String.init) ?? [])
        #expect(
            settings.isSuperset(of: ["echo", "icanon", "isig", "icrnl"]),
            "terminal modes after the cancel: \(settings.sorted())")
        #expect(
            settings.isDisjoint(with: ["-echo", "-icanon", "-isig", "-icrnl"]),
            "terminal modes after the cancel: \(settings.sorted())")
        for screen in tmux.captures {
            #expect(!screen.contains("zq-typed-9"), "typed keys were echoed:\n\(screen)")
        }
    }

    @Test(
        "a wrong master password at the prompt is asked again, three tries in all, never handed to the shell (issue 26, 2)"
    )
    func threeTries() throws {
        let (sandbox, tmux, out, rc) = try promptedGet()
        try tmux.enter("wrong-one")
        #expect(try tmux.waitForPane { $0.contains("try again (2 tries left)") } != nil, "\(tmux.captures.last ?? "")")
        try waitForPrompt(tmux)
        try tmux.enter(sandbox.password)
        #expect(try requireExit(rc, tmux: tmux, "pwtui did not finish") == "EXIT=0\n")
        #expect(readBytes(out) == Array("s3cret\n".utf8))

        // Three wrong: 77, and the third is not typed into the shell.
        let (out2, rc2) = (sandbox.scratch + "/get2.out", sandbox.scratch + "/get2.rc")
        try tmux.enter("'\(try Binaries.require(Binaries.pwtui))' get github.com > '\(out2)'; echo EXIT=$? > '\(rc2)'")
        for attempt in 1 ... 3 {
            try waitForPrompt(tmux)
            try tmux.enter("wrong-\(attempt)")
            if attempt < 3 {
                #expect(
                    try tmux.waitForPane { $0.contains("(\(3 - attempt) tr") } != nil, "\(tmux.captures.last ?? "")")
            }
        }
        #expect(try requireExit(rc2, tmux: tmux, "three wrong tries did not end pwtui") == "EXIT=77\n")
        #expect(readBytes(out2) == [])
        let history = try tmux.capture()
        #expect(!history.contains("command not found"), "nothing typed reached the shell: \(history)")
    }
}
