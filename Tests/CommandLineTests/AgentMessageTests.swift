// What the agent's commands say (issue 9, fix 13): `agent stop` and `agent lock` confirm what
// they did, `unlock` does not tell its user to run `pwtui unlock`, and after `passwd` the
// status is true at once.

import Foundation
import Testing

@Suite("Agent messages")
struct AgentMessageTests {
    @Test("unlock starting the agent says it is unlocked, not 'run pwtui unlock'; lock and stop confirm")
    func confirmations() throws {
        let sandbox = try Sandbox.withVault()
        defer { _ = try? sandbox.pwtui(["agent", "stop"], password: .none) }
        let unlock = try sandbox.pwtui(["unlock"])
        #expect(unlock.exitCode == 0, "\(unlock)")
        #expect(
            unlock.err.contains("unlocked") && !unlock.err.contains("`pwtui unlock`")
                && !unlock.err.contains("(locked"), "\(unlock)")
        let lock = try sandbox.pwtui(["agent", "lock"], password: .none)
        #expect(lock.exitCode == 0 && lock.err.contains("locked"), "\(lock)")
        let stop = try sandbox.pwtui(["agent", "stop"], password: .none)
        #expect(stop.exitCode == 0 && stop.err.contains("stopped"), "\(stop)")
        let status = try sandbox.pwtui(["agent", "status"], password: .none)
        #expect(status.exitCode == 75 && status.err.contains("no agent"), "\(status)")
        let again = try sandbox.pwtui(["agent", "stop"], password: .none)
        #expect(again.exitCode == 0 && again.err.contains("No agent is running"), "\(again)")
    }

    @Test("after passwd, agent status says locked at once (it held the old keys)")
    func statusAfterPasswd() throws {
        let sandbox = try Sandbox.withVault()
        defer { _ = try? sandbox.pwtui(["agent", "stop"], password: .none) }
        #expect(try sandbox.pwtui(["unlock"]).exitCode == 0)
        #expect(try sandbox.pwtui(["agent", "status"], password: .none).exitCode == 0)
        let passwd = try sandbox.pwtui(
            ["passwd", "--new-master-password-fd", "4"], descriptors: [4: .text("a new master password")])
        #expect(passwd.exitCode == 0, "\(passwd)")
        let status = try sandbox.pwtui(["agent", "status"], password: .none)
        #expect(status.exitCode == 75 && status.out.hasPrefix("locked"), "\(status)")
        #expect(try sandbox.pwtui(["unlock"], password: .text("a new master password")).exitCode == 0)
        #expect(try sandbox.pwtui(["agent", "status"], password: .none).exitCode == 0)
    }
}
