// What reaches the terminal from outside text — a vault's titles, a sync service's copy names —
// never carries a raw control, bidi or zero-width scalar, in process: every line a command prints
// or says through `context.streams` goes through `PrintableText`. (The last message of a failed
// command is escaped by the binary's `FinalReport`: CommandLineTests/PrintableOutputTests.)

import Foundation
@testable import Commands
import PwtuiTestSupport
import Testing
import VaultModel

@Suite("printable output, in process")
struct PrintableOutputInProcessTests {
    static func clean(_ recorded: RecordedStreams) -> Bool {
        !recorded.output.unicodeScalars.contains(where: UnsafeScalars.contains)
            && !recorded.errorText.unicodeScalars.contains(where: UnsafeScalars.contains)
    }

    static let title = "invoice\u{202E}gpj.exe"

    /// files.example's credential titled with U+202E, its username with U+200B, its notes with a
    /// C1 CSI, and one previous password.
    static func fixture() throws -> CommandFixture {
        let fixture = try CommandFixture([("files.example", "al\u{200B}ice", "pw-1", title)])
        try fixture.run(typing: CommandFixture.unlock) {
            try EditCredential(
                id: "files.example", edits: CredentialChange.Edits(notes: "csi\u{9B}31m here"), generate: false
            ).run(in: $0)
        }
        try fixture.run(input: "pw-2", typing: CommandFixture.unlock) {
            try EditCredential(
                id: "files.example", edits: CredentialChange.Edits(replacesSecret: true), generate: false
            ).run(in: $0)
        }
        return fixture
    }

    @Test("a title with U+202E and a username with U+200B: list, suggest, show and history print them escaped")
    func bidiAndZeroWidthTitles() throws {
        let fixture = try Self.fixture()
        let commands: [(String, (CommandContext) throws -> Void)] = [
            ("list", { try ListCredentials(services: [], format: .table, all: false).run(in: $0) }),
            (
                "suggest",
                { try ListCredentials(services: ["files.example"], format: .table, all: false).suggest(in: $0) }
            ),
            ("show", { try ShowCredential(reference: "files.example", reveal: false, format: .text).run(in: $0) }),
            ("history", { try ShowHistory(reference: "files.example", reveal: false).run(in: $0) }),
        ]
        for (name, command) in commands {
            let recorded = try fixture.run(typing: CommandFixture.unlock, command)
            #expect(Self.clean(recorded), "\(name): \(recorded.output) \(recorded.messages)")
            #expect(
                (recorded.output + recorded.errorText).contains("invoice\\u{202E}gpj.exe"),
                "\(name): \(recorded.output) \(recorded.messages)")
        }
        let shown = try fixture.run(typing: CommandFixture.unlock) {
            try ShowCredential(reference: "files.example", reveal: false, format: .text).run(in: $0)
        }
        #expect(
            shown.output.contains("al\\u{200B}ice") && shown.output.contains("csi\\u{9B}31m here"), "\(shown.output)")
    }

    @Test("JSON escapes them as \\u escapes and still decodes to the title; C1 too")
    func json() throws {
        let fixture = try Self.fixture()
        let commands: [(CommandContext) throws -> Void] = [
            { try ShowCredential(reference: "files.example", reveal: false, format: .json).run(in: $0) },
            { try ListCredentials(services: [], format: .json, all: false).run(in: $0) },
        ]
        for command in commands {
            let recorded = try fixture.run(typing: CommandFixture.unlock, command)
            #expect(Self.clean(recorded) && recorded.output.contains("\\u202e"), "\(recorded.output)")
            let object = try JSONSerialization.jsonObject(with: Data(recorded.output.utf8))
            let first = (object as? [[String: Any]])?.first ?? (object as? [String: Any])
            #expect(first?["title"] as? String == Self.title, "the JSON still decodes to the title: \(recorded.output)")
        }
        let shown = try fixture.run(typing: CommandFixture.unlock) {
            try ShowCredential(reference: "files.example", reveal: false, format: .json).run(in: $0)
        }
        #expect(shown.output.contains("\\u009b"), "C1 escaped in JSON: \(shown.output)")
    }

    @Test("doctor names a conflict copy whose name holds ESC ]2; without retitling the window")
    func doctorEscapesCopyNames() throws {
        let fixture = try CommandFixture()
        let directory = (fixture.context.vaultPath as NSString).deletingLastPathComponent
        try FileManager.default.copyItem(
            atPath: fixture.context.vaultPath, toPath: directory + "/vault.sync-conflict-\u{1B}]2;pwned\u{07}.pwtui")
        let doctor = try fixture.run { try Doctor().run(in: $0) }
        #expect(
            doctor.output.contains("conflict copy") && doctor.output.contains("\\e]2;pwned\\u{07}"), "\(doctor.output)")
        #expect(Self.clean(doctor), "\(doctor.output) \(doctor.messages)")
    }
}
