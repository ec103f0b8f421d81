// `history` and `edit --restore` in process, as a process without an agent runs them (the master
// password typed): the numbers `history` prints are the ones `--restore` takes, a restore keeps
// the current password, and a number the history does not have is a usage error that changes
// nothing.

import Foundation
@testable import Commands
import Testing
import VaultModel

@Suite("history and edit --restore, in process")
struct HistoryRestoreInProcessTests {
    /// shop.example's credential whose password went first → second → third, and its id.
    static func fixture() throws -> (CommandFixture, String) {
        let fixture = try CommandFixture([("shop.example", "u", "first", "Shop")])
        let id = try #require(try fixture.vault().contents.credentials.first?.id.uuidString.lowercased())
        for next in ["second", "third"] {
            try fixture.run(input: next, typing: CommandFixture.unlock) {
                try EditCredential(id: id, edits: CredentialChange.Edits(replacesSecret: true), generate: false).run(
                    in: $0)
            }
        }
        return (fixture, id)
    }

    static func history(_ reference: String, reveal: Bool = false, in fixture: CommandFixture) throws -> RecordedStreams
    {
        try fixture.run(typing: CommandFixture.unlock) {
            try ShowHistory(reference: reference, reveal: reveal).run(in: $0)
        }
    }

    @Test("history lists newest first, masked, and says on stderr which edit --restore takes its numbers")
    func numbered() throws {
        let (fixture, id) = try Self.fixture()
        let masked = try Self.history("shop.example", in: fixture)
        #expect(
            masked.output.split(separator: "\n").map { $0.prefix(3) + $0.suffix(8) } == ["1  ••••••••", "2  ••••••••"],
            "\(masked.output)")
        #expect(masked.errorText.contains("edit \(id.prefix(8)) --restore N"), "\(masked.messages)")
        let revealed = try Self.history("shop.example", reveal: true, in: fixture)
        #expect(
            revealed.output.split(separator: "\n").map { $0.split(separator: " ").last ?? "" } == ["second", "first"])
    }

    @Test("--restore 2 brings back the first password, says so, and the replaced one becomes history's 1")
    func restore() throws {
        let (fixture, id) = try Self.fixture()
        let restored = try fixture.run(typing: CommandFixture.unlock) {
            try EditCredential(id: "shop.example", edits: CredentialChange.Edits(restore: 2), generate: false).run(
                in: $0)
        }
        #expect(restored.errorText.contains("Restored previous password 2"), "\(restored.messages)")
        let get = try fixture.run(typing: CommandFixture.unlock) {
            try GetCredential.words(["shop.example"], field: .password).run(in: $0)
        }
        #expect(get.output == "first\n")
        let after = try Self.history(id, reveal: true, in: fixture).output.split(separator: "\n")
        #expect(after.first?.hasSuffix("  third") == true, "the replaced one is 1:\n\(after)")
        #expect(after.count == 3)
    }

    @Test("--restore beyond the history: 64 naming it, and the vault file is untouched")
    func restoreBeyond() throws {
        let fixture = try CommandFixture([("shop.example", "u", "only", "Shop")])
        let before = FileManager.default.contents(atPath: fixture.context.vaultPath)
        let (failure, streams) = try fixture.failure(typing: CommandFixture.unlock) {
            try EditCredential(id: "shop.example", edits: CredentialChange.Edits(restore: 1), generate: false).run(
                in: $0)
        }
        #expect(
            failure?.code == .usage && failure?.message.contains("no previous password") == true,
            "\(String(describing: failure))")
        #expect(streams.output.isEmpty)
        #expect(FileManager.default.contents(atPath: fixture.context.vaultPath) == before)
    }

    @Test("history of a credential without previous passwords: nothing on stdout, and stderr says so")
    func noHistory() throws {
        let fixture = try CommandFixture([("shop.example", "u", "only", "Shop")])
        let none = try Self.history("shop.example", in: fixture)
        #expect(none.output.isEmpty)
        #expect(none.errorText.contains("has no previous passwords"), "\(none.messages)")
    }
}
