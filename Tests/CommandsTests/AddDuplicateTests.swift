// `add` for a service and username already in the vault: refused without a terminal (64, with
// both ways out), added with `force`; the same check through the agent and a vault opened here.

import Foundation
import Platform
@testable import Commands
import ServiceMatching
import Testing
import VaultAgent
import VaultCrypto
import VaultModel

@Suite("add: the same service and username twice")
struct AddDuplicateTests {
    static func add(_ service: String, _ username: String, force: Bool = false) -> AddCredential {
        AddCredential(
            services: [service], username: username, title: "", notes: "", rank: 0, generate: true, force: force)
    }

    @Test("no terminal: refused with 64, naming the one there, edit ID --password and --force; nothing is added")
    func refusedWithoutTerminal() throws {
        let fixture = try AgentInProcessTests.Fixture()
        #expect(try fixture.unlock() == .done)
        for service in ["github.com", "https://github.com/login"] {
            let failure = #expect(throws: CommandFailure.self, "\(service)") {
                try Self.add(service, "octocat").run(in: fixture.context)
            }
            #expect(failure?.code == .usage)
            let message = failure?.message ?? ""
            #expect(
                message.contains("GitHub") && message.contains("--force") && message.contains("--password"),
                "\(message)")
        }
        #expect(try fixture.client.identities(vault: fixture.context.vaultPath)?.identities.count == 1)
    }

    @Test("another username, another host (a subdomain, a parent) or --force: added")
    func addedOtherwise() throws {
        let fixture = try AgentInProcessTests.Fixture()
        #expect(try fixture.unlock() == .done)
        try Self.add("github.com", "hubot").run(in: fixture.context)
        try Self.add("gist.github.com", "octocat").run(in: fixture.context)
        try Self.add("github.com", "octocat", force: true).run(in: fixture.context)
        let listed = try #require(try fixture.client.identities(vault: fixture.context.vaultPath)).identities
        #expect(listed.count == 4)
        #expect(listed.filter { $0.username == "octocat" && $0.services == ["github.com"] }.count == 2)
    }

    @Test("updating instead of adding takes the new password and what else add gave: title, rank, services it lacks")
    func updateCarriesTheRest() throws {
        let fixture = try AgentInProcessTests.Fixture()
        let vault = try Vault.open(
            at: fixture.context.vaultPath, password: try SecureBytes(copying: Array("master".utf8)))
        let existing = IdentityStore.Identity(try #require(vault.contents.credentials.first))
        let add = AddCredential(
            services: [], username: "octocat", title: "GitHub work", notes: "", rank: 3, generate: false)
        let edits = add.edits(existing, [try ServiceIdentifier("github.com"), try ServiceIdentifier("api.github.com")])
        #expect(edits.replacesSecret && edits.title == "GitHub work" && edits.rank == 3 && edits.notes == nil)
        #expect(edits.addServices == ["api.github.com"] && edits.removeServices.isEmpty)
        let plain = Self.add("github.com", "octocat").edits(existing, [try ServiceIdentifier("github.com")])
        #expect(plain.replacesSecret && plain.title == nil && plain.rank == nil && plain.addServices.isEmpty)
    }

    @Test("the check reads a vault opened here as it reads the agent's")
    func localVault() throws {
        let fixture = try AgentInProcessTests.Fixture()
        let vault = try Vault.open(
            at: fixture.context.vaultPath, password: try SecureBytes(copying: Array("master".utf8)))
        let identities = try VaultAccess.local(vault, fixture.context).identities().identities
        #expect(
            Self.add("github.com", "octocat").existing(identities, for: [try ServiceIdentifier("GitHub.com")])?.title
                == "GitHub")
        #expect(Self.add("github.com", "other").existing(identities, for: [try ServiceIdentifier("github.com")]) == nil)
        #expect(Self.add("x", "octocat").existing(identities, for: [try ServiceIdentifier("sub.github.com")]) == nil)
    }
}
