// An agent's write with the journal (issue 37): a small change is made to the held vault and
// appended as one record; nothing of the vault is written or copied for it. A change that fails
// leaves the held vault and the file as they were.

import Foundation
import PwtuiTestSupport
@testable import Commands
import ServiceMatching
import Testing
import VaultAgent
import VaultCrypto
import VaultModel

@Suite("Agent writes through the journal, in process")
struct AgentJournalInProcessTests {
    func file(_ fixture: AgentInProcessTests.Fixture) throws -> Data {
        try #require(FileManager.default.contents(atPath: fixture.context.vaultPath))
    }

    @Test("adds, edits and removals through the agent are records after the file as it was; gets see each at once")
    func smallChangesAreRecords() throws {
        let fixture = try AgentInProcessTests.Fixture()
        _ = try fixture.unlock()
        let access = try VaultAccess.open(fixture.context)
        var before = try file(fixture)
        let generation = try Vault.open(at: fixture.context.vaultPath, password: try secure("master")).version
            .generation
        for round in 0 ..< 20 {
            let added = try access.apply(
                .add(services: ["r\(round).example"], username: "u\(round)", title: "", notes: "", rank: 0),
                secret: try SecureBytes(copying: Array("pw-\(round)".utf8)))
            if round % 3 == 0 {
                try access.apply(
                    .edit(id: added.id.uuidString, .init(title: "renamed \(round)")),
                    secret: try SecureBytes(copying: []))
            }
            let after = try file(fixture)
            #expect(after.starts(with: before), "round \(round): only appended")
            #expect(after.count - before.count < 4096, "round \(round): a record, not the vault")
            before = after
            guard
                let found = try access.password(
                    for: CredentialQuery(services: [try ServiceIdentifier("r\(round).example")]))
            else {
                Issue.record("round \(round): the added credential was not found")
                return
            }
            #expect(AgentInProcessTests.text(found.password) == "pw-\(round)")
        }
        let reopened = try Vault.open(at: fixture.context.vaultPath, password: try secure("master"))
        #expect(reopened.version.generation == generation, "no snapshot was written")
        #expect(reopened.version.changes >= 26)
        #expect(reopened.contents.credentials.count == 21)
        #expect(reopened.contents.credentials.contains { $0.title == "renamed 9" })
        let store = try fixture.context.currentIdentityStore()
        #expect(store.isCurrent(for: reopened.header, at: reopened.version), "the store followed every record")
        #expect(store.identities.count == 21)
    }

    @Test("a change the vault refuses leaves the held vault and the file as they were")
    func aRefusedChangeChangesNothing() throws {
        let fixture = try AgentInProcessTests.Fixture()
        _ = try fixture.unlock()
        let access = try VaultAccess.open(fixture.context)
        let github = try #require(try access.identities().identities.first { $0.title == "GitHub" })
        let before = try file(fixture)
        // Removing its only service leaves a credential with neither service nor title.
        #expect(throws: (any Error).self) {
            try access.apply(
                .edit(id: github.id.uuidString, .init(title: "", removeServices: ["github.com"])),
                secret: try SecureBytes(copying: []))
        }
        #expect(try file(fixture) == before)
        guard let found = try access.password(for: CredentialQuery(services: [try ServiceIdentifier("github.com")]))
        else {
            Issue.record("github.com was not found")
            return
        }
        #expect(AgentInProcessTests.text(found.password) == "gh-secret")
    }
}
