// `rm` and `edit` naming a credential by id prefix, service or title: through an unlocked agent and
// through a vault opened here, the one named, the several named (listed, 64; or the picker), and
// nothing named.

import Foundation
import Platform
@testable import Commands
import ServiceMatching
import TUITestDoubles
import Testing
import TUI
import VaultAgent
import VaultCrypto
import VaultModel

@Suite("rm and edit: a credential by id, service or title")
struct CredentialReferenceTests {
    /// GitHub (octocat, github.com) from the fixture, plus two for example.com, one for a parent
    /// domain only, and one whose title is the start of another's id.
    static func fixture() throws -> (AgentInProcessTests.Fixture, Vault) {
        let fixture = try EqualMatchTests.fixture([
            ("example.com", "alice", 0), ("https://example.com/login", "bob", 0),
            ("parent.example", "carol", 0),
        ])
        let vault = try Vault.open(
            at: fixture.context.vaultPath, password: try SecureBytes(copying: Array("master".utf8)))
        let github = try #require(vault.contents.credentials.first { $0.username == "octocat" })
        try vault.add(
            services: [try ServiceIdentifier("decoy.example")], username: "dave",
            secret: try SecureBytes(copying: [0x61]),
            title: String(github.id.uuidString.lowercased().prefix(8)))
        try vault.save()
        return (fixture, vault)
    }

    static func accesses(_ fixture: AgentInProcessTests.Fixture, _ vault: Vault) throws -> [(String, VaultAccess)] {
        #expect(try fixture.unlock() == .done)
        let agent = try VaultAccess.open(fixture.context)
        guard case .agent = agent else {
            Issue.record("the unlocked agent was not used")
            return []
        }
        return [("agent", agent), ("local", .local(vault, fixture.context))]
    }

    @Test("one credential named by its title, a service, or an id prefix (which comes first)")
    func namesOne() throws {
        let (fixture, vault) = try Self.fixture()
        let github = try #require(vault.contents.credentials.first { $0.username == "octocat" })
        let prefix = String(github.id.uuidString.lowercased().prefix(8))
        for (name, access) in try Self.accesses(fixture, vault) {
            #expect(
                try CredentialReference("github").resolve(in: access, context: fixture.context).id == github.id,
                "\(name): title")
            #expect(
                try CredentialReference("GitHub").resolve(in: access, context: fixture.context).id == github.id,
                "\(name): title, any case")
            #expect(
                try CredentialReference("https://github.com/x").resolve(in: access, context: fixture.context).id
                    == github.id,
                "\(name): service")
            #expect(
                try CredentialReference(prefix).resolve(in: access, context: fixture.context).id == github.id,
                "\(name): the id prefix wins over dave's title")
            #expect(
                try CredentialReference("parent.example").resolve(in: access, context: fixture.context).username
                    == "carol")
        }
    }

    @Test("several named, no terminal: each listed with its id prefix, title, username and services; exit 64")
    func namesSeveral() throws {
        let (fixture, vault) = try Self.fixture()
        for (name, access) in try Self.accesses(fixture, vault) {
            let failure = #expect(throws: CommandFailure.self, "\(name)") {
                try CredentialReference("example.com").resolve(in: access, context: fixture.context)
            }
            #expect(failure?.code == .usage, "\(name)")
            let message = failure?.message ?? ""
            for credential in vault.contents.credentials where ["alice", "bob"].contains(credential.username) {
                #expect(
                    message.contains(String(credential.id.uuidString.lowercased().prefix(8)))
                        && message.contains(credential.username)
                        && message.contains(credential.services[0].text), "\(name): \(message)")
            }
            #expect(!message.contains("carol") && !message.contains("octocat"), "\(name): \(message)")
        }
    }

    @Test("the list without a terminal is in columns, padded by terminal width (a wide title too)")
    func listInColumns() throws {
        let (_, vault) = try Self.fixture()
        try vault.add(
            services: [try ServiceIdentifier("example.com")], username: "eve", secret: try SecureBytes(copying: [0x61]),
            title: "日本の店")
        let named = CredentialReference("example.com").candidates(
            in: vault.contents.credentials.map(IdentityStore.Identity.init))
        let lines = CredentialReference.lines(named)
        #expect(lines.count == 3)
        // The last occurrence: the fixture's titles are its usernames.
        func column(of word: String, in line: String) -> Int {
            TextWidth.columns(
                of: String(line[..<(line.range(of: word, options: .backwards)?.lowerBound ?? line.startIndex)]))
        }
        let users = zip(lines, named).map { column(of: "  " + $1.username + " ", in: $0) }
        let services = zip(lines, named).map { column(of: " " + $1.services[0], in: $0) }
        #expect(Set(users).count == 1 && Set(services).count == 1 && users[0] > 10, "in columns: \(lines)")
    }

    @Test("nothing named: exit 1; a parent domain's credential is not named by a host under it")
    func namesNothing() throws {
        let (fixture, vault) = try Self.fixture()
        for (name, access) in try Self.accesses(fixture, vault) {
            for text in ["site", "www.parent.example", "gitlab.com"] {
                let error = #expect(throws: (any Error).self, "\(name): \(text)") {
                    try CredentialReference(text).resolve(in: access, context: fixture.context)
                }
                #expect(error.flatMap { ExitStatus($0) } == .noMatch, "\(name): \(text): \(String(describing: error))")
            }
        }
    }

    @Test("several named on a terminal: the picker lists only them, and the choice is the one acted on")
    func picksAmongSeveral() throws {
        let (_, vault) = try Self.fixture()
        // bob has a one-time code, which a list for rm or edit must not offer to hand over.
        let named = CredentialReference("example.com").candidates(
            in: vault.contents.credentials.map(IdentityStore.Identity.init)
        ).map {
            IdentityStore.Identity(
                id: $0.id, title: $0.title, username: $0.username, services: $0.services, rank: $0.rank,
                oneTime: $0.username == "bob" ? .standard : nil)
        }
        #expect(Set(named.map(\.username)) == ["alice", "bob"])
        let terminal = GridTerminal(script: [.key(.down), .key(.enter)])
        let chosen = try CredentialReference("example.com").pick(among: named, on: terminal, commandName: "pwtui")
        let shown = try #require(terminal.frames.first?.text)
        #expect(
            shown.contains("alice") && shown.contains("bob") && !shown.contains("octocat") && !shown.contains("carol"),
            "\(shown)")
        #expect(
            shown.contains("Credentials named 'example.com' (2)") && !shown.contains("All credentials"),
            "the list says what it is (issue 26, 11): \(shown)")
        #expect(!shown.contains("^T"), "a choice here names a credential; no one-time code is handed over: \(shown)")
        #expect(chosen.username == "bob", "the second line, by title")
        let cancelled = #expect(throws: CommandFailure.self) {
            try CredentialReference("example.com").pick(
                among: named, on: GridTerminal(script: [.key(.escape)]), commandName: "pwtui")
        }
        #expect(cancelled?.code == .cancelled)
    }

    @Test("rm by title through the agent deletes that one; edit by service changes that one")
    func actions() throws {
        let (fixture, _) = try Self.fixture()
        #expect(try fixture.unlock() == .done)
        try RemoveCredential(id: "carol", confirmed: true).run(in: fixture.context)
        var edits = CredentialChange.Edits()
        edits.notes = "changed"
        try EditCredential(id: "github.com", edits: edits, generate: false).run(in: fixture.context)
        guard let listed = try fixture.client.identities(vault: fixture.context.vaultPath) else {
            Issue.record("the agent did not list")
            return
        }
        #expect(!listed.identities.contains { $0.username == "carol" } && listed.identities.count == 4)
        let reopened = try Vault.open(
            at: fixture.context.vaultPath, password: try SecureBytes(copying: Array("master".utf8)))
        #expect(reopened.contents.credentials.first { $0.username == "octocat" }?.notes == "changed")
    }
}
