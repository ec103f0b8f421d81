// `import`, `export` and `equivalents` in process (`ImportCredentials`, `ExportCredentials`,
// `EditEquivalents`): the report on stdout, the warnings and reminders on stderr, the refusals,
// and what the vault holds afterwards.

import Foundation
import Platform
@testable import Commands
import PwtuiTestSupport
import ServiceMatching
import TUITestDoubles
import Testing
import TUI
import VaultCrypto
import VaultModel

@Suite("import, export and equivalents, in process")
struct ImportExportInProcessTests {
    static let chrome =
        "name,url,username,password,note\n"
        + "GitHub,https://github.com/login,octocat,gh-secret,\n"
        + "GitLab,https://gitlab.com/users/sign_in,tanuki,gl-secret,hello\n"

    @Test("import a Chrome CSV: the report on stdout, the plaintext reminder shell-quoted on stderr, both in the vault")
    func importChrome() throws {
        let fixture = try CommandFixture()
        let file = fixture.root + "/Chrome Passwords.csv"
        try Self.chrome.write(toFile: file, atomically: true, encoding: .utf8)
        let recorded = try fixture.run(typing: CommandFixture.unlock) { try ImportCredentials(path: file).run(in: $0) }
        #expect(recorded.output == "Imported from Chrome, Edge or Brave CSV \(file): 2 added.\n", "\(recorded.output)")
        #expect(
            recorded.messages.last
                == "\(file) holds every password in plaintext: delete it when you are done (shred -u '\(file)').")
        let vault = try fixture.vault()
        #expect(Set(vault.contents.credentials.map(\.username)) == ["octocat", "tanuki"])
        // The same file again: nothing new, and the report says so.
        let again = try fixture.run(typing: CommandFixture.unlock) { try ImportCredentials(path: file).run(in: $0) }
        #expect(
            again.output.hasSuffix("Imported from Chrome, Edge or Brave CSV \(file): 2 skipped.\n"), "\(again.output)")
        #expect(
            again.output.split(separator: "\n").filter {
                $0.hasPrefix("skipped ") && $0.contains("a duplicate of credential")
            }.count == 2)
        #expect(try fixture.vault().contents.credentials.count == 2)
    }

    @Test(
        "import --dry-run lists every entry and changes nothing; an invalid entry fails it as it would fail the import")
    func dryRun() throws {
        let fixture = try CommandFixture()
        let file = fixture.root + "/export.csv"
        try Self.chrome.write(toFile: file, atomically: true, encoding: .utf8)
        let recorded = try fixture.run(typing: CommandFixture.unlock) {
            try ImportCredentials(path: file, dryRun: true).run(in: $0)
        }
        #expect(recorded.output.split(separator: "\n").filter { $0.hasPrefix("add ") }.count == 2, "\(recorded.output)")
        #expect(recorded.output.hasSuffix("Dry run, nothing changed: Chrome, Edge or Brave CSV \(file): 2 to add.\n"))
        #expect(try fixture.vault().contents.credentials.isEmpty)

        // Seven fields under a five-column header: not an entry anyone can read.
        try (Self.chrome + "Broken,https://x.example,u,p,n,extra,more\n").write(
            toFile: file, atomically: true, encoding: .utf8)
        let (failure, _) = try fixture.failure(typing: CommandFixture.unlock) {
            try ImportCredentials(path: file, dryRun: true).run(in: $0)
        }
        #expect(
            failure?.code == .corrupt && failure?.message.contains("so the import would change nothing") == true,
            "\(String(describing: failure))")
        let (real, _) = try fixture.failure(typing: CommandFixture.unlock) {
            try ImportCredentials(path: file).run(in: $0)
        }
        #expect(real?.code == .corrupt && real?.message.contains("so nothing was") == true)
        #expect(try fixture.vault().contents.credentials.isEmpty)
    }

    @Test("export: refused to a terminal before anything is asked; to a pipe every password, and the warning on stderr")
    func export() throws {
        let fixture = try CommandFixture([("github.com", "octocat", "gh-secret", "GitHub")])
        let prompt = ScriptedPrompt(CommandFixture.unlock)
        let terminal = try RecordedStreams(answerIsTerminal: true, prompt: prompt)
        fixture.context.streams = terminal.streams
        let refused = #expect(throws: CommandFailure.self) {
            try ExportCredentials(format: .csv, output: nil).run(in: fixture.context)
        }
        #expect(refused?.code == .usage && prompt.transcript.isEmpty && terminal.output.isEmpty)

        let piped = try fixture.run(typing: CommandFixture.unlock) {
            try ExportCredentials(format: .bitwardenJSON, output: nil).run(in: $0)
        }
        let object = try #require(try JSONSerialization.jsonObject(with: Data(piped.output.utf8)) as? [String: Any])
        let login = try #require((object["items"] as? [[String: Any]])?.first?["login"] as? [String: Any])
        #expect(login["password"] as? String == "gh-secret" && login["username"] as? String == "octocat")
        #expect(piped.messages.first?.hasPrefix("Exported 1 credential to stdout as bitwarden-json.") == true)

        let file = fixture.root + "/out.csv"
        let written = try fixture.run(typing: CommandFixture.unlock) {
            try ExportCredentials(format: .csv, output: file).run(in: $0)
        }
        #expect(written.output.isEmpty && readFile(file)?.contains("gh-secret") == true)
        let (exists, _) = try fixture.failure(typing: CommandFixture.unlock) {
            try ExportCredentials(format: .csv, output: file).run(in: $0)
        }
        #expect(exists?.code == .usage && exists?.message.contains("--force") == true)
    }

    @Test(
        "equivalents: add says the group, list prints it before the built-in ones, rm takes it away; an unknown domain is 65"
    )
    func equivalents() throws {
        let fixture = try CommandFixture()
        let added = try fixture.run(typing: CommandFixture.unlock) {
            try EditEquivalents.add(["example.com", "example.net"], in: $0)
        }
        #expect(added.messages == ["Equivalent: example.com example.net"])
        let listed = try fixture.run(typing: CommandFixture.unlock) { try EditEquivalents.list(in: $0) }
        let lines = listed.output.split(separator: "\n")
        #expect(lines.first == "example.com example.net")
        #expect(
            lines.dropFirst().allSatisfy { $0.hasSuffix("(built in)") }
                && lines.count == BuiltInEquivalents.groups.count + 1)

        let builtIn = try #require(BuiltInEquivalents.groups.first)
        let off = try fixture.run { try EditEquivalents.setBuiltIn([builtIn[0]], on: false, in: $0) }
        #expect(off.messages == ["Built-in group off: \(builtIn.joined(separator: " "))"])
        let marked = try fixture.run(typing: CommandFixture.unlock) { try EditEquivalents.list(in: $0) }
        #expect(marked.output.contains(builtIn.joined(separator: " ") + "  (built in, off)\n"))

        try fixture.run(typing: CommandFixture.unlock) { try EditEquivalents.remove(["example.net"], in: $0) }
        #expect(try fixture.vault().contents.equivalents.groups.isEmpty)
        let (failure, _) = try fixture.failure(typing: CommandFixture.unlock) {
            try EditEquivalents.remove(["nowhere.example"], in: $0)
        }
        #expect(failure?.code == .noMatch)
    }
}
