// `import` and `export` in process, beyond ImportExportInProcessTests: one save for a whole import,
// conflicts and --on-conflict update, entries that cannot be imported (65, nothing changed) and
// --skip-invalid, a URL's password never shown, items without a site, an export 0600 that another
// vault imports to the same credentials, and export asking even when the agent is unlocked.

import Foundation
import Interchange
@testable import Commands
import TUITestDoubles
import Testing
import TUI
import VaultCrypto
import VaultModel

@Suite("import and export, more, in process")
struct ImportExportMoreInProcessTests {
    static let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("InterchangeTests/Samples").path

    static func write(_ text: String, in fixture: CommandFixture, name: String = "export.csv") throws -> String {
        let path = fixture.root + "/" + name
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static func importing(
        _ path: String, dryRun: Bool = false, policy: ImportPlan.ConflictPolicy = .skip, skipInvalid: Bool = false,
        in fixture: CommandFixture
    ) throws -> (failure: CommandFailure?, streams: RecordedStreams) {
        try fixture.failure(typing: CommandFixture.unlock) {
            try ImportCredentials(path: path, dryRun: dryRun, policy: policy, skipInvalid: skipInvalid).run(in: $0)
        }
    }

    static func get(_ words: [String], id: String? = nil, in fixture: CommandFixture) throws -> (
        failure: CommandFailure?, streams: RecordedStreams
    ) {
        try fixture.failure(typing: CommandFixture.unlock) { try GetCredential.words(words, id: id).run(in: $0) }
    }

    /// Every regular file in the vault's directory, by name.
    static func files(_ fixture: CommandFixture) throws -> [String: Data] {
        let directory = (fixture.context.vaultPath as NSString).deletingLastPathComponent
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: directory) {
            files[name] = FileManager.default.contents(atPath: directory + "/" + name)
        }
        return files
    }

    @Test("an import is one save: one journal record after the vault as it was; every password is there, none printed")
    func oneSave() throws {
        let fixture = try CommandFixture([("example.net", "zed", "z", "")])
        let before = try #require(FileManager.default.contents(atPath: fixture.context.vaultPath))
        let version = try fixture.vault().version
        let (failure, streams) = try Self.importing(Self.samples + "/chrome.csv", in: fixture)
        #expect(failure == nil, "\(String(describing: failure))")
        #expect(
            streams.output.contains("Imported from Chrome, Edge or Brave CSV") && streams.output.contains("3 added"),
            "\(streams.output)")
        let after = try #require(FileManager.default.contents(atPath: fixture.context.vaultPath))
        #expect(after.starts(with: before), "one save: the file before the import, and the record after it")
        #expect(
            try fixture.vault().version == VaultVersion(generation: version.generation, changes: version.changes + 1))
        #expect(try fixture.vault().contents.credentials.count == 4)
        #expect(try Self.get(["github.com"], in: fixture).streams.output == "gh,pass\"1\n")
        #expect(try Self.get(["bank.example.co.uk"], in: fixture).streams.output == "bänk pass\n")
        for said in [streams.output, streams.errorText] {
            #expect(!said.contains("gh,pass") && !said.contains("bänk"), "no secret printed: \(said)")
        }
    }

    @Test(
        "--dry-run says what would happen and why, every file as it was; --on-conflict update keeps the replaced password in the history"
    )
    func dryRunThenUpdate() throws {
        let fixture = try CommandFixture([("https://github.com/login", "alice@example.com", "older", "")])
        let before = try Self.files(fixture)
        let (failure, dry) = try Self.importing(Self.samples + "/chrome.csv", dryRun: true, in: fixture)
        #expect(failure == nil)
        #expect(dry.output.contains("add       line 3: accounts.google.com"), "\(dry.output)")
        #expect(
            dry.output.contains("skip      line 2: github.com")
                && dry.output.contains("another password; --on-conflict"), "\(dry.output)")
        #expect(
            dry.output.contains("Dry run, nothing changed") && dry.output.contains("2 to add, 1 to skip"),
            "\(dry.output)")
        #expect(try Self.files(fixture) == before)

        let update = try Self.importing(Self.samples + "/chrome.csv", policy: .update, in: fixture)
        #expect(
            update.failure == nil && update.streams.output.contains("2 added, 1 updated"), "\(update.streams.output)")
        #expect(try Self.get(["github.com"], in: fixture).streams.output == "gh,pass\"1\n")
        let history = try fixture.run(typing: CommandFixture.unlock) {
            try ShowHistory(reference: "github.com", reveal: true).run(in: $0)
        }
        #expect(history.output.contains("older"), "the replaced password is in the history: \(history.output)")
    }

    @Test(
        "an entry that cannot be imported: 65 naming its line, nothing changed, no secret said; --skip-invalid imports the rest"
    )
    func invalidEntries() throws {
        let fixture = try CommandFixture()
        let file = try Self.write(
            "name,url,username,password\nA,https://a.example/,u,pa\nNo site,,u,secret-b\nC,https://c.example/,u,pc,extra\n",
            in: fixture)
        let before = try Self.files(fixture)
        let (refused, streams) = try Self.importing(file, in: fixture)
        let said = (refused?.message ?? "") + "\n" + streams.errorText
        #expect(refused?.code == .corrupt, "\(said)")
        #expect(
            said.contains("1 of 3 entries cannot be imported, so nothing was")
                && said.contains("line 4: 5 fields where the header has 4"), "\(said)")
        #expect(!said.contains("secret-b"), "\(said)")
        #expect(try Self.files(fixture) == before)

        let skipping = try Self.importing(file, skipInvalid: true, in: fixture)
        #expect(
            skipping.failure == nil && skipping.streams.output.contains("2 added, 1 not importable"),
            "\(skipping.streams.output)")
        #expect(try fixture.vault().contents.credentials.count == 2)
        let shown = try fixture.run(typing: CommandFixture.unlock) {
            try ShowCredential(reference: "No site", reveal: true, format: .text).run(in: $0)
        }
        #expect(shown.output.contains("secret-b"))

        let unbalanced = try Self.write(
            "name,url,username,password\nA,https://a.example/,u,\"pa\n", in: fixture, name: "open.csv")
        let broken = try Self.importing(unbalanced, in: fixture)
        #expect(
            broken.failure?.code == .corrupt && broken.failure?.message.contains("open.csv:line 2, column 24") == true,
            "\(String(describing: broken.failure))")
    }

    @Test("--dry-run fails as the import would (65), and shows no URL's password; with --skip-invalid it succeeds")
    func dryRunFailure() throws {
        let fixture = try CommandFixture()
        let file = try Self.write(
            "name,url,username,password\nA,https://bob:hunter2@a.example/,bob,pa\nC,https://c.example/,u,pc,extra\n",
            in: fixture)
        let (dry, streams) = try Self.importing(file, dryRun: true, in: fixture)
        let said = (dry?.message ?? "") + "\n" + streams.errorText
        #expect(dry?.code == .corrupt, "\(said)")
        #expect(
            streams.output.contains("Dry run, nothing changed") && said.contains("so the import would change nothing"),
            "\(streams.output) \(said)")
        #expect(!streams.output.contains("hunter2") && !said.contains("hunter2"))
        #expect(streams.output.contains("https://…@a.example/"), "\(streams.output)")
        #expect(try Self.importing(file, dryRun: true, skipInvalid: true, in: fixture).failure == nil)
    }

    @Test(
        "an item without a site: add --title, found by its title and id (show, get TITLE, get --id, list, rm), never for a service"
    )
    func sitelessItem() throws {
        let fixture = try CommandFixture([("home.example", "kim", "site-pw", "")])
        func addItem(_ title: String, _ secret: String) throws -> String {
            try fixture.run(input: secret + "\n", typing: CommandFixture.unlock) {
                try AddCredential(services: [], username: "", title: title, notes: "", rank: 0, generate: false).run(
                    in: $0)
            }.output.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let id = try addItem("Home Wi-Fi", "wifi-pass")
        #expect(try Self.get([], id: String(id.prefix(8)), in: fixture).streams.output == "wifi-pass\n")
        #expect(
            try Self.get(["home wi-fi"], in: fixture).streams.output == "wifi-pass\n",
            "a title is no service: get finds the item by it")
        _ = try addItem("Router", "router-pass")
        #expect(
            try Self.get(["router"], in: fixture).streams.output == "router-pass\n",
            "one word: no host matches, so the title does")
        let nothing = try Self.get(["nowhere"], in: fixture)
        #expect(
            nothing.failure?.code == .noMatch && nothing.failure?.message.contains("nor has it as its title") == true,
            "\(String(describing: nothing.failure))")
        // Read as a title, a pasted user:password@host is still never repeated.
        let pasted = try Self.get(["bob:hunter9@host.example"], in: fixture)
        #expect(
            pasted.failure?.code == .noMatch && pasted.failure?.message.contains("hunter9") == false,
            "\(String(describing: pasted.failure))")
        let (shownPasted, _) = try fixture.failure(typing: CommandFixture.unlock) {
            try ShowCredential(reference: "bob:hunter9@host.example", reveal: false, format: .text).run(in: $0)
        }
        #expect(
            shownPasted?.code == .noMatch && shownPasted?.message.contains("hunter9") == false,
            "\(String(describing: shownPasted))")
        let shown = try fixture.run(typing: CommandFixture.unlock) {
            try ShowCredential(reference: "Home Wi-Fi", reveal: false, format: .text).run(in: $0)
        }
        #expect(shown.output.contains("Home Wi-Fi") && !shown.output.contains("wifi-pass"), "\(shown.output)")
        let list = try fixture.run(typing: CommandFixture.unlock) {
            try ListCredentials(services: [], format: .table, all: false).run(in: $0)
        }
        #expect(list.output.contains("(no site)"), "\(list.output)")
        #expect(try Self.get(["home.example"], in: fixture).streams.output == "site-pw\n")
        try fixture.run(typing: CommandFixture.unlock) {
            try RemoveCredential(id: "Home Wi-Fi", confirmed: true).run(in: $0)
        }
        #expect(try fixture.vault().contents.credentials.count == 2)
    }

    @Test("export --output: 0600, nothing on stdout; imported into another vault it gives the same credentials")
    func exportRoundTrip() throws {
        let fixture = try CommandFixture([
            ("https://github.com/login", "alice", "gh \"pw\", 1", "GitHub"),
            ("example.org", "ünïcode", "ex-pw", "Example"),
        ])
        try fixture.run(typing: CommandFixture.unlock) {
            try EditCredential(
                id: "example.org", edits: CredentialChange.Edits(notes: "line 1\nline 2, \"quoted\""), generate: false
            ).run(in: $0)
        }
        let output = fixture.root + "/out.json"
        let export = try fixture.run(typing: CommandFixture.unlock) {
            try ExportCredentials(format: .bitwardenJSON, output: output).run(in: $0)
        }
        #expect(
            export.errorText.contains("Exported 2 credentials") && export.errorText.contains("plaintext"),
            "\(export.messages)")
        #expect(try FileManager.default.attributesOfItem(atPath: output)[.posixPermissions] as? Int == 0o600)
        #expect(export.output.isEmpty)

        let other = try CommandFixture()
        let imported = try other.run(typing: CommandFixture.unlock) { try ImportCredentials(path: output).run(in: $0) }
        #expect(imported.output.contains("2 added"), "\(imported.output)")
        let strip = { (vault: Vault) in
            vault.contents.credentials.map {
                [$0.title, $0.username, $0.services.map(\.description).joined(separator: " "), $0.notes].joined(
                    separator: "|")
            }.sorted()
        }
        let (theirs, ours) = (strip(try other.vault()), strip(try fixture.vault()))
        #expect(theirs == ours, "\(theirs) \(ours)")
        #expect(try Self.get(["github.com"], in: other).streams.output == "gh \"pw\", 1\n")
    }

    @Test("export asks for the master password even when the agent is unlocked: without one, nothing is exported")
    func exportAsksEvenUnlocked() throws {
        let agent = try AgentInProcessTests.Fixture()
        #expect(try agent.unlock() == .done)
        let recorded = try RecordedStreams()
        agent.context.streams = recorded.streams
        try GetCredential.words(["github.com"]).run(in: agent.context)
        #expect(recorded.output == "gh-secret\n", "the agent answers get")
        let refused = try RecordedStreams()
        agent.context.streams = refused.streams
        #expect(throws: (any Error).self) { try ExportCredentials(format: .csv, output: nil).run(in: agent.context) }
        #expect(refused.output.isEmpty, "no password given, no export")
        let asked = try RecordedStreams(prompt: ScriptedPrompt([.secret("master")]))
        agent.context.streams = asked.streams
        try ExportCredentials(format: .csv, output: nil).run(in: agent.context)
        #expect(asked.output.contains("gh-secret"))
    }
}
