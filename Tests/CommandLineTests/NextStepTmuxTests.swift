// Plain `pwtui` left with an empty vault names the next command in a form that runs (issue 9,
// fix 14): after `make run` nothing is on PATH, so that is the program's full path and how to
// install it; once `pwtui` on PATH is this program, just `pwtui`.

import Foundation
import Testing

@Suite("The next step after an empty picker")
struct NextStepTmuxTests {
    /// Runs plain pwtui in tmux on an empty vault, leaves with Esc, and returns its stderr.
    func leaveEmptyPicker(_ sandbox: Sandbox, command: String) throws -> String {
        let tmux = try TmuxSession.shellReady(sandbox: sandbox)
        let err = sandbox.scratch + "/start.err", rc = sandbox.scratch + "/start.rc"
        try tmux.enter("\(command) 2>'\(err)'; echo \"RC=$?\" > '\(rc)'")
        try #require(try tmux.waitForPane { $0.contains("The vault is empty") } != nil, "\(tmux.captures.last ?? "")")
        try tmux.press("Escape")
        var status = ""
        poll(timeout: .seconds(10)) {
            status = readBytes(rc).map { String(decoding: $0, as: UTF8.self) } ?? ""
            return status.hasSuffix("\n")
        }
        #expect(status == "RC=130\n")
        return try String(contentsOfFile: err, encoding: .utf8)
    }

    @Test("not on PATH: the full path of this pwtui, and make install")
    func notOnPath() throws {
        let sandbox = try Sandbox.withVault()
        let pwtui = try Binaries.require(Binaries.pwtui)
        let resolved = URL(fileURLWithPath: pwtui).resolvingSymlinksInPath().path
        let err = try leaveEmptyPicker(sandbox, command: "PATH=/usr/bin:/bin '\(pwtui)'")
        #expect(err.contains("\(resolved) add github.com --username NAME"), "\(err)")
        #expect(err.contains("make install"), "\(err)")
    }

    @Test("on PATH: plain pwtui")
    func onPath() throws {
        let sandbox = try Sandbox.withVault()
        let bin = sandbox.root + "/bin"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: bin + "/pwtui", withDestinationPath: try Binaries.require(Binaries.pwtui))
        let err = try leaveEmptyPicker(sandbox, command: "PATH='\(bin)':/usr/bin:/bin pwtui")
        #expect(err.contains("\n  pwtui add github.com --username NAME"), "\(err)")
        #expect(!err.contains("make install"), "\(err)")
    }
}
