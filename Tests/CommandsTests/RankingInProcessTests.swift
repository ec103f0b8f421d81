// Ranking in process (`ListCredentials`, `GetCredential`, `EditEquivalents`, `AddCredential`): list
// SERVICE --format json reports each credential's tier, get answers with the first and never with a
// non-match, equivalents travel in the vault, use history stays out of it, and a missing Public
// Suffix List is said once and degrades safely.

import Foundation
@testable import Commands
import TUITestDoubles
import Testing
import TUI
import VaultModel

@Suite("ranking, in process")
struct RankingInProcessTests {
    /// One credential per tier for https://api.github.com/login, and one unrelated.
    static func fixture() throws -> CommandFixture {
        let fixture = try CommandFixture([
            ("https://api.github.com/login", "exact", "p-exact", ""), ("api.github.com", "host", "p-host", ""),
            ("github.com", "parent", "p-parent", ""), ("*.github.com", "wild", "p-wild", ""),
            ("https://gist.github.com/x", "site", "p-site", ""), ("dropbox.com", "unrelated", "p-unrelated", ""),
        ])
        // The unrelated one has a second service, box.com: a suffix of dropbox.com's name, never its match.
        try fixture.run(typing: CommandFixture.unlock) {
            try EditCredential(
                id: "dropbox.com", edits: CredentialChange.Edits(addServices: ["box.com"]), generate: false
            ).run(in: $0)
        }
        return fixture
    }

    /// (username, match) of `list SERVICES --format json [--all]`, and what it said on stderr.
    static func ranked(_ services: [String], all: Bool = false, in fixture: CommandFixture) throws -> (
        rows: [(String, String?)], messages: [String]
    ) {
        let listed = try fixture.run(typing: CommandFixture.unlock) {
            try ListCredentials(services: services, format: .json, all: all).run(in: $0)
        }
        let rows = try #require(
            try JSONSerialization.jsonObject(with: Data(listed.output.utf8)) as? [[String: Any]], "\(listed.output)")
        return (rows.map { ($0["username"] as? String ?? "", $0["match"] as? String) }, listed.messages)
    }

    static func get(
        _ service: String, field: CredentialField = .password,
        in fixture: CommandFixture
    ) throws -> (failure: CommandFailure?, streams: RecordedStreams) {
        try fixture.failure(typing: CommandFixture.unlock) {
            try GetCredential.words([service], field: field).run(in: $0)
        }
    }

    @Test(
        "list SERVICE --format json gives every tier, best first; --all adds the rest with match null; get takes the first"
    )
    func listReportsTiers() throws {
        let fixture = try Self.fixture()
        let matches = try Self.ranked(["https://api.github.com/login"], in: fixture).rows
        #expect(matches.map(\.0) == ["exact", "host", "parent", "wild", "site"])
        #expect(matches.map(\.1) == ["exact-url", "same-host", "parent-domain", "wildcard", "same-site"])
        let all = try Self.ranked(["https://api.github.com/login"], all: true, in: fixture).rows
        #expect(all.last?.0 == "unrelated")
        #expect(all.last?.1 == nil)
        #expect(try Self.get("https://api.github.com/login/two-factor", in: fixture).streams.output == "p-exact\n")
    }

    @Test(
        "get never answers with a credential that does not match (1, nothing on stdout); https is never offered to http"
    )
    func getRefusesNonMatches() throws {
        let fixture = try Self.fixture()
        for request in ["dropbox.co", "ithub.com", "github.io", "https://github.com:8443/", "http://gist.github.co"] {
            let (failure, streams) = try Self.get(request, in: fixture)
            #expect(failure?.code == .noMatch && streams.output.isEmpty, "\(request): \(String(describing: failure))")
        }
        #expect(try Self.get("www.box.com", in: fixture).streams.output == "p-unrelated\n")
        let http = try Self.ranked(["http://api.github.com/login"], in: fixture).rows
        #expect(!http.map(\.0).contains("exact") && !http.map(\.0).contains("site"), "\(http)")
        #expect(http.first?.0 == "host")
    }

    @Test(
        "equivalents add, list --user, rm: stored in the vault (a copy of the file carries them), matches marked equivalent"
    )
    func equivalents() throws {
        let fixture = try CommandFixture([("amazon.com", "shopper", "p-amazon", "")])
        #expect(try Self.get("amazon.com.be", in: fixture).failure?.code == .noMatch)
        try fixture.run(typing: CommandFixture.unlock) {
            try EditEquivalents.add(["amazon.com", "Amazon.COM.be", "amazon.co.uk"], in: $0)
        }
        #expect(
            try fixture.run { try EditEquivalents.list(userOnly: true, in: $0) }.output
                == "amazon.co.uk amazon.com amazon.com.be\n")
        #expect(try Self.ranked(["www.amazon.com.be"], in: fixture).rows.map(\.1) == ["equivalent"])
        #expect(try Self.get("amazon.co.uk", in: fixture).streams.output == "p-amazon\n")

        // In the vault, not beside it: a copy of the vault file alone carries them.
        let copy = fixture.root + "/copy.pwtui"
        try FileManager.default.copyItem(atPath: fixture.context.vaultPath, toPath: copy)
        let recorded = try RecordedStreams(prompt: ScriptedPrompt(CommandFixture.unlock))
        try EditEquivalents.list(
            userOnly: true, in: CommandContext(vault: copy, environment: fixture.environment, streams: recorded.streams)
        )
        #expect(recorded.output == "amazon.co.uk amazon.com amazon.com.be\n")

        try fixture.run(typing: CommandFixture.unlock) {
            try EditEquivalents.remove(["amazon.com.be", "amazon.co.uk"], in: $0)
        }
        #expect(try fixture.run { try EditEquivalents.list(userOnly: true, in: $0) }.output == "")
        #expect(try Self.get("amazon.co.uk", in: fixture).failure?.code == .noMatch)
        let (unknown, _) = try fixture.failure(typing: CommandFixture.unlock) {
            try EditEquivalents.remove(["nowhere.example"], in: $0)
        }
        #expect(unknown?.code == .noMatch)
    }

    @Test("add with an invalid service: 64 quoting the bad part, and nothing added")
    func invalidServices() throws {
        let fixture = try CommandFixture()
        for (service, fragment) in [
            ("*.com", "*.com"), ("*.co.uk", "co.uk"), ("*.github.io", "github.io"),
            ("1ftp://example.com", "'1ftp'"), ("example.com:70000", "'70000'"),
            ("foo.*.example.com", "foo.*.example.com"), ("git hub.com", "'git hub.com'"),
        ] {
            let (failure, _) = try fixture.failure(input: "secret", typing: CommandFixture.unlock) {
                try AddCredential(services: [service], username: "u", title: "", notes: "", rank: 0, generate: false)
                    .run(in: $0)
            }
            #expect(failure?.code == .usage, "\(service): \(String(describing: failure))")
            #expect(failure?.message.contains(fragment) == true, "\(service): \(String(describing: failure))")
        }
        #expect(try fixture.vault().contents.credentials.isEmpty)
    }

    @Test("use history lives in XDG_STATE_HOME (0600) and breaks ties; get never rewrites the vault")
    func usageHistory() throws {
        let fixture = try CommandFixture([
            ("example.com", "a-first", "p-a", ""), ("example.com", "b-second", "p-b", ""),
        ])
        let vaultBefore = FileManager.default.contents(atPath: fixture.context.vaultPath)
        let ids = Dictionary(
            uniqueKeysWithValues: try fixture.vault().contents.credentials.map {
                ($0.username, $0.id.uuidString.lowercased())
            })
        // Equal in tier, rank and title: without history the id decides. Whichever comes first,
        // a more recent use of the other one for this service must put it first.
        let first = try Self.get("example.com", field: .username, in: fixture).streams.output
        let other = first == "a-first\n" ? "b-second" : "a-first"
        let otherID = try #require(ids[other])
        let usage = fixture.root + "/state/pwtui/usage"
        let later = Int64(Date().timeIntervalSince1970 * 1000) + 60_000
        try "\(otherID)\texample.com\t1\t\(later)\n".write(toFile: usage, atomically: true, encoding: .utf8)
        #expect(try Self.get("example.com", field: .username, in: fixture).streams.output == other + "\n")
        let history = try String(contentsOfFile: usage, encoding: .utf8)
        #expect(history.contains("\(otherID)\texample.com\t2\t"), "the use was recorded: \(history)")
        let mode = try FileManager.default.attributesOfItem(atPath: usage)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(
            FileManager.default.contents(atPath: fixture.context.vaultPath) == vaultBefore,
            "reading must not rewrite the vault")
    }

    @Test("a Public Suffix List that cannot be loaded is said once; exact and parent matching go on")
    func missingSuffixList() throws {
        let fixture = try Self.fixture()
        fixture.environment = fixture.environment.setting("PWTUI_PSL_FILE", to: fixture.root + "/no-such-list.dat")
        let (rows, messages) = try Self.ranked(["https://api.github.com/login"], in: fixture)
        #expect(
            messages.joined(separator: "\n").components(separatedBy: "Public Suffix List").count == 2,
            "said exactly once: \(messages)")
        #expect(
            rows.map(\.1) == ["exact-url", "same-host", "parent-domain", "wildcard"], "no same-site without the list")
        #expect(try Self.get("www.github.com", in: fixture).streams.output == "p-parent\n")
    }
}
