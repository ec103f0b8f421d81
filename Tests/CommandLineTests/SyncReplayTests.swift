import Foundation
import Testing

/// A replayed older vault through git (issue 24, 3 and 5): a backup put back on one machine and
/// committed is merged on the other without reverting what changed since, and every step that
/// sees the older file says so — the sync that commits it, the driver that merges it, the sync that
/// fast-forwards to it, and `get` answered by an unlocked agent that reloaded it.
@Suite(.serialized) struct SyncReplayTests {
    static let uri = "otpauth://totp/Example:a?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&issuer=Example"

    /// Machine A with a vault pushed to a bare remote, machine B a clone of it; both set up.
    static func twoMachines() throws -> (a: Sandbox, b: Sandbox) {
        let clones = try TwoClones(Login(["a.example"], username: "a", secret: "a-pw"))
        return (clones.a, clones.b)
    }

    static func git(_ sandbox: Sandbox, _ arguments: [String]) throws -> RunResult {
        try TwoClones.git(sandbox, arguments)
    }

    @discardableResult
    static func sync(_ sandbox: Sandbox, sourceLocation: SourceLocation = #_sourceLocation) throws -> RunResult {
        let result = try sandbox.pwtui(["sync"], password: .none)
        #expect(result.exitCode == 0, "\(result)", sourceLocation: sourceLocation)
        return result
    }

    @Test(
        "a backup restored and committed on one clone does not revert the notes, services or key set since; sync and the driver say it is older"
    )
    func aRestoredBackupRevertsNothing() throws {
        let (a, b) = try Self.twoMachines()
        let backup = a.root + "/backup.pwtui"
        try FileManager.default.copyItem(atPath: a.vault, toPath: backup)
        // Changed on A after the backup, and seen by B.
        let edit = try a.pwtui(
            ["edit", "a.example", "--notes", "notes since", "--add-service", "since.example", "--totp"],
            stdin: Self.uri + "\n")
        try #require(edit.exitCode == 0, "\(edit)")
        try Self.sync(a)
        try Self.sync(b)
        try b.startUnlockedAgent()
        defer { b.stopAgent() }

        // A puts the backup back and commits it; B has a change of its own meanwhile.
        try FileManager.default.removeItem(atPath: a.vault)
        try FileManager.default.copyItem(atPath: backup, toPath: a.vault)
        let restored = try Self.sync(a)
        #expect(restored.err.contains("older copy"), "the sync that commits an older file says so: \(restored)")
        try b.add(["b.example"], username: "b", secret: "b-pw")
        let merged = try Self.sync(b)
        #expect(
            merged.err.contains("older than the copy both sides started from"), "the driver names the replay: \(merged)"
        )
        #expect(merged.err.contains("0 changed"), "\(merged)")

        for sandbox in [b, a] {
            if sandbox === a { try Self.sync(a) }
            let shown = try sandbox.pwtui(["show", "a.example", "--reveal", "--format", "json"])
            try #require(shown.exitCode == 0, "\(shown)")
            #expect(shown.out.contains("notes since"), "\(shown)")
            #expect(shown.out.contains("since.example"), "\(shown)")
            let code = try sandbox.pwtui(["get", "a.example", "--field", "totp"])
            #expect(code.exitCode == 0 && code.out.count == 7, "the key set since is still there: \(code)")
            #expect(try sandbox.pwtui(["get", "b.example"]).out == "b-pw\n")
        }
    }

    @Test(
        "get through the unlocked agent after a sync fast-forwarded to an older file warns, as the sync does (issue 24, 5)"
    )
    func getThroughTheAgentWarnsOfAnOlderFile() throws {
        let (a, b) = try Self.twoMachines()
        let backup = a.root + "/backup.pwtui"
        try FileManager.default.copyItem(atPath: a.vault, toPath: backup)
        let edit = try a.pwtui(["edit", "a.example", "--password"], stdin: "new-pw")
        try #require(edit.exitCode == 0, "\(edit)")
        try Self.sync(a)
        try b.startUnlockedAgent()
        defer { b.stopAgent() }
        try Self.sync(b)
        let current = try b.pwtui(["get", "a.example"], password: .none)
        #expect(current.out == "new-pw\n" && !current.err.contains("older copy"), "\(current)")

        // A restores the backup and sends it; B fast-forwards to it (no merge: B changed nothing).
        try FileManager.default.removeItem(atPath: a.vault)
        try FileManager.default.copyItem(atPath: backup, toPath: a.vault)
        try Self.sync(a)
        let fastForward = try Self.sync(b)
        #expect(fastForward.err.contains("older copy"), "\(fastForward)")
        let replayed = try b.pwtui(["get", "a.example"], password: .none)
        #expect(replayed.exitCode == 0 && replayed.out == "a-pw\n", "\(replayed)")
        #expect(replayed.err.contains("older copy"), "the agent's answer comes with the warning: \(replayed)")

        // The picker answered by the agent says it too, once its screen is gone.
        let tmux = try TmuxSession.shellReady(sandbox: b)
        let out = b.scratch + "/picked"
        try tmux.enter("'\(try Binaries.require(Binaries.pwtui))' pick a.example > '\(out)'; echo EXIT=$?")
        try tmux.requirePane { $0.contains("Matches for a.example") }
        try tmux.press("Enter")
        let done = try tmux.waitForPane { $0.range(of: "EXIT=[0-9]", options: .regularExpression) != nil }
        #expect(done?.contains("older copy") == true && done?.contains("EXIT=0") == true, "\(done ?? "")")
    }
}
