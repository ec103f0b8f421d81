// A master password typed on a terminal also unlocks the agent (issue 26, 9): `agent = "auto"`
// in the settings (the default) starts the agent if none runs and hands it the password, so the
// next command asks nothing; `agent = "off"` leaves that to `pwtui unlock`.

import Foundation
import Testing

@Suite("typing the master password feeds the agent", .serialized)
struct AgentAutoUnlockTests {
    /// `pwtui get github.com` typed into a shell under tmux, answered with the master password.
    func getOnTheTerminal(_ sandbox: Sandbox) throws {
        let tmux = try TmuxSession.shellReady(sandbox: sandbox)
        let out = sandbox.scratch + "/get.out"
        try tmux.enter("'\(try Binaries.require(Binaries.pwtui))' get github.com > '\(out)'; echo EXIT=$?")
        try tmux.requirePane { $0.contains("Master password:") }
        try tmux.enter(sandbox.password)
        #expect(try tmux.waitForPane { $0.contains("EXIT=0") } != nil, "\(tmux.captures.last ?? "")")
        #expect(readBytes(out) == Array("s3cret\n".utf8))
    }

    @Test(
        "agent = auto: after get asked on the terminal, the next get (no terminal, no descriptor) is answered by the agent it started"
    )
    func autoUnlocks() throws {
        let sandbox = try Sandbox.withVault(Login(["github.com"], username: "alice", secret: "s3cret"))
        try sandbox.writeConfig("agent = \"auto\"\nagent_idle_timeout = \"90s\"\n")
        defer { sandbox.stopAgent() }
        #expect(try sandbox.pwtui(["get", "github.com"], password: .none).exitCode == 75, "locked, and nobody to ask")
        try getOnTheTerminal(sandbox)
        var next = try sandbox.pwtui(["get", "github.com"], password: .none)
        // The unlock is handed over without waiting: the agent may still be deriving the key.
        _ = poll(timeout: .seconds(10)) {
            next = (try? sandbox.pwtui(["get", "github.com"], password: .none)) ?? next
            return next.exitCode == 0
        }
        #expect(next.exitCode == 0 && next.out == "s3cret\n", "\(next)")
        let status = try sandbox.pwtui(["agent", "status"], password: .none)
        #expect(status.exitCode == 0 && status.out.contains("unlocked"), "\(status)")
        let seconds = status.out.split(separator: " ").compactMap { Int($0) }.first ?? 0
        #expect(seconds > 0 && seconds <= 90, "the settings' idle timeout: \(status)")
    }

    @Test("agent = off: a typed password unlocks this command only; unlock --idle-timeout chooses the agent's timeout")
    func offLeavesItToUnlock() throws {
        let sandbox = try Sandbox.withVault(Login(["github.com"], username: "alice", secret: "s3cret"))
        try sandbox.writeConfig("agent = \"off\"\n")
        defer { sandbox.stopAgent() }
        try getOnTheTerminal(sandbox)
        #expect(try sandbox.pwtui(["agent", "status"], password: .none).exitCode == 75, "no agent started")
        #expect(try sandbox.pwtui(["get", "github.com"], password: .none).exitCode == 75)

        let unlock = try sandbox.pwtui(["unlock", "--idle-timeout", "45s"])
        #expect(unlock.exitCode == 0 && unlock.err.contains("locks after 45s unused"), "\(unlock)")
        let status = try sandbox.pwtui(["agent", "status"], password: .none)
        let seconds = status.out.split(separator: " ").compactMap { Int($0) }.first ?? 0
        #expect(seconds > 0 && seconds <= 45, "\(status)")
        #expect(try sandbox.pwtui(["unlock", "--idle-timeout", "soon"]).exitCode == 64)
    }

    @Test("unlocking in the picker feeds the agent too: the next pick asks nothing")
    func pickerFeedsTheAgent() throws {
        let sandbox = try Sandbox.withVault(Login(["github.com"], username: "alice", secret: "s3cret"))
        try sandbox.writeConfig("agent = \"auto\"\n")
        defer { sandbox.stopAgent() }
        let tmux = try TmuxSession.shellReady(sandbox: sandbox)
        let pwtui = try Binaries.require(Binaries.pwtui)
        let out = sandbox.scratch + "/pick.out"
        try tmux.enter("'\(pwtui)' pick github.com > '\(out)'; echo EXIT=$?")
        try tmux.requirePane { $0.contains("Master password") || $0.contains("Matches for github.com") }
        if try tmux.capture().contains("Matches for github.com") { try tmux.press("Enter") }
        try tmux.requirePane { $0.contains("Master password") }
        try tmux.enter(sandbox.password)
        #expect(try tmux.waitForPane { $0.contains("EXIT=0") } != nil, "\(tmux.captures.last ?? "")")
        var next = try sandbox.pwtui(["get", "github.com"], password: .none)
        _ = poll(timeout: .seconds(10)) {
            next = (try? sandbox.pwtui(["get", "github.com"], password: .none)) ?? next
            return next.exitCode == 0
        }
        #expect(next.exitCode == 0 && next.out == "s3cret\n", "\(next)")
    }
}
