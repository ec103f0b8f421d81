// Issue 16's commands in process: what goes to stdout and to stderr, and the status each failure
// maps to — get among equally good matches (here and through an agent in this process), the tie
// notice's --id advice, rm and edit by service or title, add of an account already there, and
// add --generate handing the password over.

import Foundation
@testable import Commands
import ServiceMatching
import Testing
import TUI
import VaultCrypto
import VaultModel

@Suite("everyday commands, in process")
struct EverydayInProcessTests {
    static func fixture() throws -> CommandFixture {
        try CommandFixture([
            ("github.com", "alice", "alice-pw", ""), ("github.com", "bob", "bob-pw", ""),
            ("gitlab.com", "carol", "carol-pw", ""),
        ])
    }

    static func ids(_ fixture: CommandFixture) throws -> [String: String] {
        Dictionary(
            uniqueKeysWithValues: try fixture.vault().contents.credentials.map {
                ($0.username, $0.id.uuidString.lowercased())
            })
    }

    @Test(
        "get with two equally good matches: one password on stdout, the choice and the count on stderr, no secret there"
    )
    func tieIsSaid() throws {
        let fixture = try Self.fixture()
        let local = try fixture.run(typing: CommandFixture.unlock) {
            try GetCredential.words(["github.com"]).run(in: $0)
        }
        #expect(["alice-pw\n", "bob-pw\n"].contains(local.output), "\(local.output)")
        #expect(
            local.errorText.contains("2 credentials match github.com equally well") && local.errorText.contains("--id"),
            "\(local.messages)")
        let chosen = local.output == "alice-pw\n" ? "alice" : "bob"
        #expect(local.errorText.contains("(\(chosen), id "), "the one on stdout is the one named: \(local.messages)")
        #expect(
            !local.errorText.contains("alice-pw") && !local.errorText.contains("bob-pw"),
            "no secret on stderr: \(local.messages)")

        let alone = try fixture.run(typing: CommandFixture.unlock) {
            try GetCredential.words(["gitlab.com"]).run(in: $0)
        }
        #expect(alone.output == "carol-pw\n" && alone.messages.isEmpty, "\(alone.messages)")
        let narrower = try fixture.run(typing: CommandFixture.unlock) {
            try GetCredential.words(["github.com"], field: .username).run(in: $0)
        }
        #expect(narrower.errorText.contains("equally well"), "still a tie, whatever the field: \(narrower.messages)")
    }

    @Test(
        "git's helper (the master password on a descriptor) among equally good matches answers without the tie notice")
    func gitHelperSaysNoTie() throws {
        let fixture = try Self.fixture()
        let git = try fixture.run(input: "protocol=https\nhost=github.com\n\n", passwordOnDescriptor: true) {
            try GitCredentialHelper(context: $0).run(operation: "get")
        }
        #expect(git.output.contains("password=") && !git.errorText.contains("equally"), "\(git.output) \(git.messages)")
    }

    @Test("through an unlocked agent: the same tie notice, --id as it advises, and git's helper still without it")
    func tieThroughTheAgent() throws {
        let agent = try AgentInProcessTests.Fixture()
        let vault = try Vault.open(
            at: agent.context.vaultPath, password: try SecureBytes(copying: Array("master".utf8)))
        try vault.add(
            services: [try ServiceIdentifier("github.com")], username: "hubot",
            secret: try SecureBytes(copying: Array("bot-pw".utf8)), title: "")
        try vault.save()
        #expect(try agent.unlock() == .done)
        let recorded = try RecordedStreams()
        agent.context.streams = recorded.streams
        try GetCredential.words(["github.com"]).run(in: agent.context)
        #expect(["gh-secret\n", "bot-pw\n"].contains(recorded.output), "\(recorded.output)")
        #expect(recorded.errorText.contains("2 credentials match github.com equally well"), "\(recorded.messages)")
        let chosen = recorded.output == "gh-secret\n" ? "octocat" : "hubot"
        #expect(recorded.errorText.contains("(\(chosen), id "), "\(recorded.messages)")
        // The notice's advice through the agent too: --id gives the other one, and nothing is said.
        let other = chosen == "octocat" ? "hubot" : "octocat"
        let otherID = try #require(
            vault.contents.credentials.first { $0.username == other }?.id.uuidString.lowercased().prefix(8))
        let byID = try RecordedStreams()
        agent.context.streams = byID.streams
        try GetCredential.words(["github.com"], id: String(otherID)).run(in: agent.context)
        #expect(
            byID.output == (other == "octocat" ? "gh-secret\n" : "bot-pw\n") && byID.messages.isEmpty,
            "\(byID.output) \(byID.messages)")
        let git = try RecordedStreams(input: "protocol=https\nhost=github.com\n\n")
        agent.context.streams = git.streams
        try GitCredentialHelper(context: agent.context).run(operation: "get")
        #expect(git.output.contains("password=") && !git.errorText.contains("equally"), "\(git.messages)")
    }

    @Test(
        "the tie notice's advice works: get SERVICE --id ID gives that one, counts as its use, and says when the id is saved for another service (issue 26, 8)"
    )
    func tieAdviceWorks() throws {
        let fixture = try Self.fixture()
        let ids = try Self.ids(fixture)
        let first = try fixture.run(typing: CommandFixture.unlock) {
            try GetCredential.words(["github.com"]).run(in: $0)
        }
        let other = first.output == "alice-pw\n" ? "bob" : "alice"
        let id = String(try #require(ids[other]).prefix(8))

        let chosen = try fixture.run(typing: CommandFixture.unlock) {
            try GetCredential.words(["github.com"], id: id).run(in: $0)
        }
        #expect(
            chosen.output == "\(other)-pw\n" && chosen.messages.isEmpty, "as the notice advised: \(chosen.messages)")
        let after = try fixture.run(typing: CommandFixture.unlock) {
            try GetCredential.words(["github.com"]).run(in: $0)
        }
        #expect(after.output == "\(other)-pw\n", "the choice counts as a use of github.com")

        let carol = String(try #require(ids["carol"]).prefix(8))
        let elsewhere = try fixture.run(typing: CommandFixture.unlock) {
            try GetCredential.words(["github.com"], id: carol).run(in: $0)
        }
        #expect(elsewhere.output == "carol-pw\n", "\(elsewhere.output)")
        #expect(elsewhere.errorText.contains("is not saved for github.com"), "\(elsewhere.messages)")
    }

    @Test("add \"Home Wi-Fi\" (no service) says how to add an item without a site: 64, and nothing is added (issue 23)")
    func addWithATitleWhereAServiceGoes() throws {
        let fixture = try CommandFixture()
        for username in ["", "me"] {
            let (failure, _) = try fixture.failure(input: "wifi-secret", typing: CommandFixture.unlock) {
                try AddCredential(
                    services: ["Home Wi-Fi"], username: username, title: "", notes: "", rank: 0, generate: false
                ).run(in: $0)
            }
            #expect(
                failure?.code == .usage && failure?.message.contains("pwtui add --title 'Home Wi-Fi'") == true,
                "\(String(describing: failure))")
        }
        #expect(try fixture.vault().contents.credentials.isEmpty)
    }

    @Test("rm and edit by a service several credentials share: 64, each listed with its id prefix, nothing changed")
    func severalNamed() throws {
        let fixture = try CommandFixture([
            ("site.example", "alice", "a", ""), ("shop.example", "bob", "b", ""), ("shop.example", "carol", "c", ""),
        ])
        let ids = try Self.ids(fixture).mapValues { String($0.prefix(8)) }
        let (several, streams) = try fixture.failure(typing: CommandFixture.unlock) {
            try RemoveCredential(id: "shop.example", confirmed: true).run(in: $0)
        }
        let said = (several?.message ?? "") + "\n" + streams.errorText
        #expect(several?.code == .usage && streams.output.isEmpty, "\(String(describing: several))")
        #expect(said.contains("bob") && said.contains("carol") && !said.contains("alice"), "\(said)")
        #expect(
            ids.count == 3 && said.contains(ids["bob"] ?? "?") && said.contains(ids["carol"] ?? "?")
                && !said.contains(ids["alice"] ?? "?"),
            "each listed with its id prefix: \(said)")
        #expect(try fixture.vault().contents.credentials.count == 3)
        let (editSeveral, _) = try fixture.failure(typing: CommandFixture.unlock) {
            try EditCredential(id: "shop.example", edits: CredentialChange.Edits(notes: "x"), generate: false).run(
                in: $0)
        }
        #expect(editSeveral?.code == .usage)
        #expect(try fixture.vault().contents.credentials.allSatisfy { $0.notes.isEmpty })
    }

    @Test(
        "rm and edit by a title or service naming one: it is changed, then deleted; a name matching none is 1, quoting it"
    )
    func oneNamed() throws {
        let fixture = try CommandFixture([("site.example", "alice", "a", ""), ("shop.example", "bob", "b", "")])
        try fixture.run(typing: CommandFixture.unlock) {
            try EditCredential(id: "site.example", edits: CredentialChange.Edits(title: "My Site"), generate: false)
                .run(in: $0)
        }
        let removed = try fixture.run(typing: CommandFixture.unlock) {
            try RemoveCredential(id: "my site", confirmed: true).run(in: $0)
        }
        #expect(removed.errorText.contains("Deleted My Site"), "\(removed.messages)")
        #expect(try fixture.vault().contents.credentials.map(\.username) == ["bob"])
        let (none, _) = try fixture.failure(typing: CommandFixture.unlock) {
            try RemoveCredential(id: "site", confirmed: true).run(in: $0)
        }
        #expect(none?.code == .noMatch && none?.message.contains("'site'") == true, "\(String(describing: none))")
    }

    @Test(
        "add of a service and username already there: 64 without a terminal to ask, naming both ways out; --force adds a second"
    )
    func duplicateAdd() throws {
        let fixture = try CommandFixture([("github.com", "alice", "first", "")])
        func add(_ service: String, _ username: String, force: Bool = false) -> AddCredential {
            AddCredential(
                services: [service], username: username, title: "", notes: "", rank: 0, generate: false, force: force)
        }
        let (again, streams) = try fixture.failure(input: "second", passwordOnDescriptor: true) {
            try add("https://github.com", "alice").run(in: $0)
        }
        #expect(again?.code == .usage && streams.output.isEmpty, "\(String(describing: again))")
        let message = again?.message ?? ""
        #expect(
            message.contains("--force") && message.contains("edit ") && message.contains("--password"), "\(message)")
        #expect(try fixture.vault().contents.credentials.count == 1)

        let forced = try fixture.run(input: "second", typing: CommandFixture.unlock) {
            try add("github.com", "alice", force: true).run(in: $0)
        }
        #expect(forced.messages.isEmpty, "silently: \(forced.messages)")
        #expect(try fixture.vault().contents.credentials.count == 2)
        try fixture.run(input: "third", typing: CommandFixture.unlock) { try add("github.com", "bob").run(in: $0) }
        #expect(try fixture.vault().contents.credentials.count == 3, "another account")
    }

    @Test(
        "add --generate --print: the id, then the password (the one get returns); without --print only the id, and stderr says where it is"
    )
    func generatedPassword() throws {
        let fixture = try CommandFixture()
        let printed = try fixture.run(typing: CommandFixture.unlock) {
            try AddCredential(
                services: ["new.example"], username: "u", title: "", notes: "", rank: 0, generate: true,
                printPassword: true
            ).run(in: $0)
        }
        let lines = printed.output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.count == 3 && lines[2].isEmpty, "\(printed.output)")
        let id = try #require(lines.first)
        #expect(UUID(uuidString: id) != nil, "\(printed.output)")
        let password = lines.count > 1 ? lines[1] : ""
        #expect(password.count >= 16 && !printed.errorText.contains(password), "\(printed.messages)")
        let get = try fixture.run(typing: CommandFixture.unlock) { try GetCredential.words([], id: id).run(in: $0) }
        #expect(get.output == password + "\n")

        let quiet = try fixture.run(typing: CommandFixture.unlock) {
            try AddCredential(services: ["other.example"], username: "u", title: "", notes: "", rank: 0, generate: true)
                .run(in: $0)
        }
        #expect(UUID(uuidString: quiet.output.trimmingCharacters(in: .newlines)) != nil, "only the id: \(quiet.output)")
        #expect(quiet.errorText.contains("--print"), "where the password is: \(quiet.messages)")
    }
}
