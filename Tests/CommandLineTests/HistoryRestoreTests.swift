// `history` and `edit --restore` as the binary runs them without a terminal: the numbers
// `history` prints are the ones `--restore` takes, a restore keeps the current password, and a
// number the history does not have is a usage error that changes nothing.

import Foundation
import Testing

@Suite("history and edit --restore")
struct HistoryRestoreTests {
    @Test("history lists newest first; --restore 2 brings back the first password and keeps the current one")
    func restoreAsHistoryNumbers() throws {
        let sandbox = try Sandbox.withVault()
        let id = try sandbox.add(["shop.example"], username: "u", secret: "first")
        for next in ["second", "third"] {
            let edit = try sandbox.pwtui(["edit", id, "--password"], stdin: next)
            try #require(edit.exitCode == 0, "\(edit)")
        }
        let masked = try sandbox.pwtui(["history", "shop.example"])
        #expect(masked.exitCode == 0)
        #expect(
            masked.out.split(separator: "\n").map { $0.prefix(3) + $0.suffix(8) } == ["1  ••••••••", "2  ••••••••"],
            "\(masked)")
        #expect(masked.err.contains("edit \(id.lowercased().prefix(8)) --restore N"), "\(masked)")
        let revealed = try sandbox.pwtui(["history", "shop.example", "--reveal"])
        #expect(revealed.out.split(separator: "\n").map { $0.split(separator: " ").last ?? "" } == ["second", "first"])

        let restore = try sandbox.pwtui(["edit", "shop.example", "--restore", "2"])
        #expect(restore.exitCode == 0, "\(restore)")
        #expect(restore.err.contains("Restored previous password 2"), "\(restore)")
        #expect(try sandbox.pwtui(["get", "shop.example"]).out == "first\n")
        let after = try sandbox.pwtui(["history", id, "--reveal"])
        #expect(
            after.out.split(separator: "\n").first?.hasSuffix("  third") == true, "the replaced one is 1:\n\(after.out)"
        )
        #expect(after.out.split(separator: "\n").count == 3)
    }

    @Test("--restore beyond the history: 64, nothing changed; with --password: 64")
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
