// `get` among equally good matches: how many tied travels with the answer, from the agent and
// from a vault opened here, and what is said about it on stderr.

import Foundation
import Platform
@testable import Commands
import ServiceMatching
import Testing
import VaultAgent
import VaultCrypto
import VaultModel

@Suite("get among equally good matches")
struct EqualMatchTests {
    /// The fixture's vault (GitHub, octocat) plus `extra` credentials, before the agent unlocks.
    static func fixture(_ extra: [(service: String, username: String, rank: Int32)]) throws
        -> AgentInProcessTests.Fixture
    {
        let fixture = try AgentInProcessTests.Fixture()
        let vault = try Vault.open(
            at: fixture.context.vaultPath, password: try SecureBytes(copying: Array("master".utf8)))
        for login in extra {
            try vault.add(
                services: [try ServiceIdentifier(login.service)], username: login.username,
                secret: try SecureBytes(copying: Array("\(login.username)-secret".utf8)), title: login.username,
                rank: login.rank)
        }
        try vault.save()
        return fixture
    }

    static func tied(_ query: CredentialQuery, _ fixture: AgentInProcessTests.Fixture) throws -> (
        IdentityStore.Identity, Int
    )? {
        guard let answer = try fixture.client.get(query, field: .password, vault: fixture.context.vaultPath),
            case .credential(let identity, _, let tied) = answer.body
        else { return nil }
        return (identity, tied)
    }

    @Test("the agent's answer says how many tied: two for github.com, one by id, one for the only gitlab.com")
    func agentCarriesTheTieCount() throws {
        let fixture = try Self.fixture([("https://github.com", "hubot", 0), ("gitlab.com", "tanuki", 0)])
        #expect(try fixture.unlock() == .done)
        let github = try Self.tied(CredentialQuery(services: [try ServiceIdentifier("github.com")]), fixture)
        #expect(github?.1 == 2)
        let byID = try Self.tied(CredentialQuery(id: try #require(github?.0.id.uuidString)), fixture)
        #expect(byID?.1 == 1)
        #expect(try Self.tied(CredentialQuery(services: [try ServiceIdentifier("gitlab.com")]), fixture)?.1 == 1)
        // Only one of them is that account's: a narrower question has one answer.
        #expect(
            try Self.tied(CredentialQuery(services: [try ServiceIdentifier("github.com")], username: "hubot"), fixture)?
                .1 == 1)
    }

    @Test("a higher rank, a closer tier or an earlier service is not a tie; the use history is")
    func whatCountsAsATie() throws {
        let fixture = try Self.fixture([
            ("github.com", "ranked", 5), ("github.com", "plain", 0), ("gist.github.com", "gist", 0),
        ])
        let vault = try Vault.open(
            at: fixture.context.vaultPath, password: try SecureBytes(copying: Array("master".utf8)))
        let github = CredentialQuery(services: [try ServiceIdentifier("github.com")])
        let first = try fixture.context.rankedAnswer(github, in: vault)
        #expect(first.credential.username == "ranked" && first.tied == 1, "the rank settles it")
        // Without the rank, octocat and plain tie; gist is another host (a same-site match).
        try vault.update(first.credential.id) { $0.rank = 0 }
        let tie = try fixture.context.rankedAnswer(github, in: vault)
        #expect(tie.tied == 3, "octocat, ranked and plain for github.com itself")
        // Using one makes it the answer next time — still a tie, settled by the history.
        let used = try fixture.context.rankedAnswer(
            CredentialQuery(services: [try ServiceIdentifier("gist.github.com")]), in: vault)
        #expect(used.credential.username == "gist" && used.tied == 1, "the exact host beats its parent domain")
        let again = try fixture.context.rankedAnswer(github, in: vault)
        #expect(again.credential.id == tie.credential.id && again.tied == 3)
        // An earlier requested service beats a later one: no tie across them.
        let both = CredentialQuery(services: [
            try ServiceIdentifier("gist.github.com"), try ServiceIdentifier("github.com"),
        ])
        #expect(try fixture.context.rankedAnswer(both, in: vault).tied == 1)
    }

    @Test("the notice names the chosen one, the count and how to settle it; nothing for one answer or an id")
    func noticeText() throws {
        let fixture = try AgentInProcessTests.Fixture()
        let vault = try Vault.open(
            at: fixture.context.vaultPath, password: try SecureBytes(copying: Array("master".utf8)))
        let identity = IdentityStore.Identity(try #require(vault.contents.credentials.first))
        let query = CredentialQuery(services: [try ServiceIdentifier("github.com")])
        let text = try #require(TieNotice.text(tied: 3, chosen: identity, query: query))
        #expect(text.contains("3 credentials") && text.contains("GitHub") && text.contains("octocat"))
        #expect(text.contains(String(identity.id.uuidString.lowercased().prefix(8))) && text.contains("--id"))
        #expect(TieNotice.text(tied: 1, chosen: identity, query: query) == nil)
        #expect(TieNotice.text(tied: 2, chosen: identity, query: CredentialQuery(id: identity.id.uuidString)) == nil)
    }
}
