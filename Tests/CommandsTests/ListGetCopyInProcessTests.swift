// `list`, `suggest`, `get`, `copy` and `generate` in process (`ListCredentials`, `GetCredential`,
// `CopyPassword`, `GeneratePassword`): what each prints on stdout, what it says on stderr, and
// where a password goes when stdout is a person's terminal.

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

@Suite("list, suggest, get, copy and generate, in process")
struct ListGetCopyInProcessTests {
    static func fixture() throws -> CommandFixture {
        try CommandFixture([
            ("github.com", "octocat", "gh-secret", "GitHub"),
            ("https://github.com/login", "hubot", "bot-secret", "Hubot"),
            ("gitlab.com", "tanuki", "gl-secret", "GitLab"), ("", "", "wifi-pass", "Home Wi-Fi"),
        ])
    }

    @Test(
        "list: sites by title, then items without a site; JSON with match kinds for services; no match in a table is 65"
    )
    func list() throws {
        let fixture = try Self.fixture()
        let table = try fixture.run(typing: CommandFixture.unlock) {
            try ListCredentials(services: [], format: .table, all: false).run(in: $0)
        }
        let order = ["GitHub", "GitLab", "Hubot", "Home Wi-Fi"].map { title in table.output.range(of: title)?.lowerBound
        }
        #expect(
            order.allSatisfy { $0 != nil }
                && order == order.sorted { ($0 ?? table.output.endIndex) < ($1 ?? table.output.endIndex) },
            "\(table.output)")
        #expect(!table.output.contains("secret") && !table.output.contains("wifi-pass"))

        let json = try fixture.run(typing: CommandFixture.unlock) {
            try ListCredentials(services: ["github.com"], format: .json, all: false).run(in: $0)
        }
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [[String: Any]])
        #expect(Set(rows.compactMap { $0["username"] as? String }) == ["octocat", "hubot"])
        #expect(rows.allSatisfy { $0["match"] is String && $0["password"] == nil })

        let (failure, _) = try fixture.failure(typing: CommandFixture.unlock) {
            try ListCredentials(services: ["example.org"], format: .table, all: false).run(in: $0)
        }
        #expect(failure?.code == .noMatch)
    }

    @Test("suggest reads the identity store only: no prompt is opened, and it answers what list would")
    func suggest() throws {
        let fixture = try Self.fixture()
        let prompt = ScriptedPrompt()
        let recorded = try RecordedStreams(prompt: prompt)
        fixture.context.streams = recorded.streams
        try ListCredentials(services: ["gitlab.com"], format: .table, all: false).suggest(in: fixture.context)
        #expect(prompt.transcript.isEmpty)
        #expect(
            recorded.output.contains("GitLab") && recorded.output.contains("tanuki")
                && !recorded.output.contains("GitHub"))
    }

    @Test("get to a pipe: the password alone on stdout; two equally good matches are said on stderr, never on stdout")
    func getToAPipe() throws {
        let fixture = try Self.fixture()
        let single = try fixture.run(typing: CommandFixture.unlock) {
            try GetCredential(
                query: CredentialQuery(services: [try ServiceIdentifier("gitlab.com")]), field: .password,
                noInteraction: false
            ).run(in: $0)
        }
        #expect(single.output == "gl-secret\n")
        #expect(single.messages.isEmpty)
        let tied = try fixture.run(typing: CommandFixture.unlock) {
            try GetCredential(
                query: CredentialQuery(services: [try ServiceIdentifier("github.com")]), field: .username,
                noInteraction: false
            ).run(in: $0)
        }
        #expect(["octocat\n", "hubot\n"].contains(tied.output))
        #expect(
            tied.messages.contains { $0.hasPrefix("pwtui: 2 credentials match github.com equally well") },
            "\(tied.messages)")
        let byTitle = try fixture.run(typing: CommandFixture.unlock) {
            let (query, fallback) = try GetCredential.query(words: ["Home Wi-Fi"], id: nil)
            var get = GetCredential(query: query, field: .password, noInteraction: false)
            get.titleFallback = fallback
            try get.run(in: $0)
        }
        #expect(byTitle.output == "wifi-pass\n")
    }

    @Test("get --no-interaction on a locked vault: 75 and nothing asked; no terminal: 75 naming --master-password-fd")
    func getLocked() throws {
        let fixture = try Self.fixture()
        let prompt = ScriptedPrompt(CommandFixture.unlock)
        let recorded = try RecordedStreams(prompt: prompt)
        fixture.context.streams = recorded.streams
        let query = CredentialQuery(services: [try ServiceIdentifier("gitlab.com")])
        let refused = #expect(throws: CommandFailure.self) {
            try GetCredential(query: query, field: .password, noInteraction: true).run(in: fixture.context)
        }
        #expect(refused?.code == .interactionRequired && prompt.transcript.isEmpty && recorded.output.isEmpty)
        let (failure, streams) = try fixture.failure {
            try GetCredential(query: query, field: .password, noInteraction: false).run(in: $0)
        }
        #expect(failure?.code == .interactionRequired && failure?.message.contains("--master-password-fd") == true)
        #expect(streams.output.isEmpty)
    }

    @Test(
        "copy: the password goes to the terminal's clipboard as OSC 52 (base64), never to stdout; the confirmation names it"
    )
    func copyToTheTerminal() throws {
        let fixture = try CommandFixture(
            [("gitlab.com", "tanuki", "gl-secret", "GitLab")], settings: "clipboard_timeout = 0\nagent = \"off\"\n")
        let device = fixture.root + "/tty"
        let recorded = try fixture.run(typing: CommandFixture.unlock, answerIsTerminal: true, device: device) {
            try CopyPassword(query: CredentialQuery(services: [try ServiceIdentifier("gitlab.com")])).run(in: $0)
        }
        let written = try #require(readFile(device))
        #expect(written == "\u{1B}]52;c;" + Data("gl-secret".utf8).base64EncodedString() + "\u{07}")
        #expect(recorded.output.isEmpty)
        #expect(
            recorded.messages == [
                "Copied the password of GitLab (tanuki) to the clipboard; not cleared (clipboard_timeout = 0)."
            ])
    }

    @Test("generate: one line on stdout by the rules given; a short passphrase is warned of; impossible rules are 64")
    func generate() throws {
        let fixture = try CommandFixture()
        let ruled = try fixture.run {
            try GeneratePassword(rules: "minlength: 12; maxlength: 12; allowed: digit").run(in: $0)
        }
        #expect(
            ruled.output.count == 13 && ruled.output.hasSuffix("\n") && ruled.output.dropLast().allSatisfy(\.isNumber),
            "\(ruled.output)")
        let words = try fixture.run { try GeneratePassword(words: 3).run(in: $0) }
        #expect(words.output.dropLast().split(whereSeparator: { !$0.isLetter }).count == 3, "\(words.output)")
        #expect(words.messages.contains { $0.hasPrefix("pwtui: 3 words are ") })
        let site = try fixture.run { try GeneratePassword(hosts: ["apple.com"]).run(in: $0) }
        #expect(
            site.messages.contains { $0.hasPrefix("Using the password rules apple.com publishes") }, "\(site.messages)")
        let (failure, streams) = try fixture.failure {
            try GeneratePassword(rules: "minlength: 20; maxlength: 10").run(in: $0)
        }
        #expect(failure?.code == .usage && streams.output.isEmpty)
    }
}

/// A file's text, or nil when it cannot be read.
func readFile(_ path: String) -> String? {
    FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
}
