// One identity store per vault (issue 9, fix 3), in process: using another vault (a context named
// for it, as --vault does) must not overwrite the usual vault's store; an old single store file
// where the stores' directory goes is replaced, not fatal.

import Foundation
@testable import Commands
import TUITestDoubles
import Testing
import TUI
import VaultModel

@Suite("one identity store per vault, in process")
struct PerVaultIdentityStoreInProcessTests {
    /// The store files (one per vault).
    static func storeFiles(_ fixture: CommandFixture) -> [String] {
        let names =
            (try? FileManager.default.contentsOfDirectory(atPath: fixture.root + "/state/pwtui/identities")) ?? []
        return names.filter { !$0.hasPrefix(".") && !$0.hasSuffix(".key") && !$0.hasSuffix(".journal") }
    }

    /// `suggest SERVICE --format json [--vault VAULT]` with no terminal: the usernames, or nil when it failed.
    static func suggested(_ service: String, vault: String? = nil, in fixture: CommandFixture) throws -> [String]? {
        let recorded = try RecordedStreams()
        let context = CommandContext(
            vault: vault ?? fixture.context.vaultPath, environment: fixture.environment, streams: recorded.streams)
        do {
            try ListCredentials(services: [service], format: .json, all: false).suggest(in: context)
        } catch is CommandFailure {
            return nil
        }
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(recorded.output.utf8)) as? [[String: Any]])
        return rows.compactMap { $0["username"] as? String }
    }

    @Test("two vaults: using the other one leaves suggest for the usual one working, each suggests its own")
    func twoVaults() throws {
        let fixture = try CommandFixture([("github.com", "alice", "s1", "")])
        let other = fixture.root + "/other/other.pwtui"
        let creating = try RecordedStreams(prompt: ScriptedPrompt([.secret(CommandFixture.password)]))
        let otherSession = CommandContext(vault: other, environment: fixture.environment, streams: creating.streams)
        let vault = try Vault.createCheaply(at: other, password: CommandFixture.password)
        try otherSession.save(vault)
        let adding = try RecordedStreams(
            input: "s2", prompt: ScriptedPrompt(CommandFixture.unlock + CommandFixture.unlock))
        let addSession = CommandContext(vault: other, environment: fixture.environment, streams: adding.streams)
        try AddCredential(services: ["gitlab.com"], username: "bob", title: "", notes: "", rank: 0, generate: false)
            .run(in: addSession)
        try ListCredentials(services: [], format: .table, all: false).run(in: addSession)

        #expect(try Self.suggested("github.com", in: fixture) == ["alice"])
        #expect(try Self.suggested("gitlab.com", vault: other, in: fixture) == ["bob"])
        #expect(
            try Self.suggested("gitlab.com", in: fixture) == [],
            "the usual vault's store has none of the other's identities")
        #expect(Self.storeFiles(fixture).count == 2, "\(Self.storeFiles(fixture))")
    }

    @Test("a store file left where the stores' directory goes (the old single store) is replaced, not fatal")
    func oldSingleStore() throws {
        let fixture = try CommandFixture()
        let directory = fixture.root + "/state/pwtui/identities"
        try FileManager.default.removeItem(atPath: directory)
        try "PWIS old single store".write(toFile: directory, atomically: true, encoding: .utf8)
        let added = try fixture.run(input: "s1", typing: CommandFixture.unlock) {
            try AddCredential(
                services: ["github.com"], username: "alice", title: "", notes: "", rank: 0, generate: false
            ).run(in: $0)
        }
        #expect(!added.errorText.contains("could not be written"), "\(added.messages)")
        #expect(try Self.suggested("github.com", in: fixture) == ["alice"])
    }
}
