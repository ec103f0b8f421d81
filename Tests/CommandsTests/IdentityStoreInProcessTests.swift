// The credential identity store, in process: kept by every command that saves, rebuilt when
// missing or stale, never holding a secret, absent when switched off, and read by `suggest`
// without a password. (Its consistency when a save is killed stays in CommandLineTests.)

import Foundation
@testable import Commands
import Testing
import TUI
import VaultModel

@Suite("identity store and suggest, in process")
struct IdentityStoreInProcessTests {
    /// The vault's store (one file per vault); a path that does not exist when there is none.
    static func storePath(_ fixture: CommandFixture) -> String {
        let directory = fixture.root + "/state/pwtui/identities"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.filter { !$0.hasPrefix(".") && !$0.hasSuffix(".key") }.sorted().first.map { directory + "/" + $0 }
            ?? directory + "/none"
    }

    /// `suggest SERVICE --format json` with no terminal: its rows, or the failure.
    static func suggest(_ service: String, in fixture: CommandFixture) throws -> (
        failure: CommandFailure?, rows: [[String: Any]]
    ) {
        let (failure, streams) = try fixture.failure {
            try ListCredentials(services: [service], format: .json, all: false).suggest(in: $0)
        }
        guard failure == nil else { return (failure, []) }
        return (
            nil,
            try #require(
                try JSONSerialization.jsonObject(with: Data(streams.output.utf8)) as? [[String: Any]],
                "\(streams.output)")
        )
    }

    static func add(
        _ service: String, _ username: String, _ secret: String, notes: String = "", in fixture: CommandFixture
    ) throws {
        try fixture.run(input: secret, typing: CommandFixture.unlock) {
            try AddCredential(
                services: [service], username: username, title: "", notes: notes, rank: 0, generate: false
            ).run(in: $0)
        }
    }

    @Test("suggest ranks from the store without a password; the store (0600) holds no secret and no notes")
    func suggestWithoutUnlocking() throws {
        let fixture = try CommandFixture()
        try Self.add("github.com", "alice", "top-secret-1", notes: "private-note", in: fixture)
        try Self.add("api.github.com", "bot", "top-secret-2", in: fixture)
        let rows = try Self.suggest("https://api.github.com/x", in: fixture).rows
        #expect(rows.map { $0["username"] as? String } == ["bot", "alice"])
        #expect(rows.map { $0["match"] as? String } == ["same-host", "parent-domain"])
        let store = try #require(FileManager.default.contents(atPath: Self.storePath(fixture)))
        let text = String(decoding: store, as: UTF8.self)
        #expect(!text.contains("top-secret") && !text.contains("private-note"), "\(text)")
        #expect(
            try FileManager.default.attributesOfItem(atPath: Self.storePath(fixture))[.posixPermissions] as? Int
                == 0o600)
        let none = try Self.suggest("gitlab.com", in: fixture)
        #expect(none.failure == nil && none.rows.isEmpty)
    }

    @Test("a deleted store: suggest is 75 until the next unlock rebuilds it")
    func rebuiltWhenMissing() throws {
        let fixture = try CommandFixture([("github.com", "alice", "s1", "")])
        try FileManager.default.removeItem(atPath: Self.storePath(fixture))
        #expect(try Self.suggest("github.com", in: fixture).failure?.code == .interactionRequired)
        try fixture.run(typing: CommandFixture.unlock) {
            try ListCredentials(services: [], format: .table, all: false).run(in: $0)
        }
        #expect(try Self.suggest("github.com", in: fixture).rows.count == 1)
    }

    @Test(
        "an older copy of the vault put back: the store is stale (75) until an unlock rebuilds it from the vault as it is"
    )
    func rebuiltWhenStale() throws {
        let fixture = try CommandFixture([("github.com", "alice", "s1", "")])
        let vault = fixture.context.vaultPath
        let copy = fixture.root + "/older.pwtui"
        try FileManager.default.copyItem(atPath: vault, toPath: copy)
        try FileManager.default.removeItem(atPath: vault)
        try FileManager.default.copyItem(atPath: copy, toPath: vault)
        try Self.add("gitlab.com", "bob", "s2", in: fixture)
        #expect(
            try Self.suggest("gitlab.com", in: fixture).rows.count == 1, "the add rebuilt it (it mirrored a newer file)"
        )
        try FileManager.default.removeItem(atPath: vault)
        try FileManager.default.copyItem(atPath: copy, toPath: vault)
        #expect(
            try Self.suggest("gitlab.com", in: fixture).failure?.code == .interactionRequired,
            "stale: the vault file is not the one it mirrors")
        try fixture.run(typing: CommandFixture.unlock) { try GetCredential.words(["github.com"]).run(in: $0) }
        let after = try #require(IdentityStore.load(from: Self.storePath(fixture)))
        #expect(
            !after.identities.contains { $0.username == "bob" }
                && !FileManager.default.fileExists(atPath: Self.storePath(fixture) + ".journal"),
            "rebuilt from the vault as it is now, the journal that had bob gone")
    }

    @Test("identity_store = false: a save removes the existing file, and suggest is 75 without making one")
    func switchedOff() throws {
        let fixture = try CommandFixture([("github.com", "alice", "s1", "")])
        #expect(FileManager.default.fileExists(atPath: Self.storePath(fixture)))
        try "identity_store = false\n".write(
            toFile: fixture.root + "/config/pwtui/config.toml", atomically: true, encoding: .utf8)
        try Self.add("gitlab.com", "bob", "s2", in: fixture)
        #expect(!FileManager.default.fileExists(atPath: Self.storePath(fixture)))
        #expect(try Self.suggest("github.com", in: fixture).failure?.code == .interactionRequired)
        #expect(!FileManager.default.fileExists(atPath: Self.storePath(fixture)))
    }
}
