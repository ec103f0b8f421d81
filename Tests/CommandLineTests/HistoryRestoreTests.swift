// `history` and `edit --restore` through the binary: only what needs the process — the exit codes
// as a shell sees them, and the option check that swift-argument-parser makes. What they print and
// save is tested in process (CommandsTests/HistoryRestoreInProcessTests).

import Foundation
import Testing

@Suite("history and edit --restore")
struct HistoryRestoreTests {
    @Test(
        "--restore beyond the history: 64, nothing changed; with --password: 64 from the option check; history without any: 0"
    )
    func restoreRefused() throws {
        let sandbox = try Sandbox.withVault(Login(["shop.example"], username: "u", secret: "only"))
        let before = readBytes(sandbox.vault)
        let beyond = try sandbox.pwtui(["edit", "shop.example", "--restore", "1"])
        #expect(beyond.exitCode == 64, "\(beyond)")
        #expect(beyond.err.contains("no previous password"), "\(beyond)")
        #expect(readBytes(sandbox.vault) == before, "the vault file is untouched")
        let both = try sandbox.pwtui(["edit", "shop.example", "--restore", "1", "--password"], stdin: "x")
        #expect(both.exitCode == 64 && both.err.contains("exclude each other"), "\(both)")
        let none = try sandbox.pwtui(["history", "shop.example"])
        #expect(none.exitCode == 0 && none.out.isEmpty && none.err.contains("has no previous passwords"), "\(none)")
    }
}
