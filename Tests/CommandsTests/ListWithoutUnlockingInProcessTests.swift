// `list` and `equivalents list` without unlocking, in process (issue 9): they answer from the
// identity store when it mirrors the vault file, else from an unlocked agent, and unlock only when
// neither can — a prompt that is there is never opened while the store or the agent can answer.

import Foundation
@testable import Commands
import TUITestDoubles
import Testing
import TUI
import VaultModel

@Suite("list without unlocking, in process")
struct ListWithoutUnlockingInProcessTests {
    static func rows(_ recorded: RecordedStreams) throws -> [[String: Any]] {
        try #require(
            try JSONSerialization.jsonObject(with: Data(recorded.output.utf8)) as? [[String: Any]], "\(recorded.output)"
        )
    }

    @Test(
        "a current identity store answers list and equivalents list with no terminal; a prompt that is there is not opened"
    )
    func fromTheIdentityStore() throws {
        let fixture = try CommandFixture([("github.com", "alice", "s1", ""), ("www.amazon.com", "bob", "s2", "")])
        try fixture.run(typing: CommandFixture.unlock) {
            try EditEquivalents.add(["amazon.com", "amazon.co.uk"], in: $0)
        }

        let table = try fixture.run { try ListCredentials(services: [], format: .table, all: false).run(in: $0) }
        #expect(
            table.output.contains("alice") && table.output.contains("bob"), "no terminal, and yet:\n\(table.output)")
        let prompt = ScriptedPrompt([.secret("not the master password")])
        let recorded = try RecordedStreams(prompt: prompt)
        fixture.context.streams = recorded.streams
        try ListCredentials(services: [], format: .json, all: false).run(in: fixture.context)
        #expect(prompt.transcript.isEmpty, "the password is not needed, so not asked")
        #expect(try Self.rows(recorded).count == 2)

        let ranked = try Self.rows(
            try fixture.run { try ListCredentials(services: ["amazon.co.uk"], format: .json, all: false).run(in: $0) })
        #expect(
            ranked.map { $0["match"] as? String } == ["equivalent"], "ranked with the store's equivalents: \(ranked)")
        #expect(ranked.first?["created"] == nil, "no times outside the vault: \(ranked)")
        #expect(
            try fixture.run { try EditEquivalents.list(userOnly: true, in: $0) }.output == "amazon.co.uk amazon.com\n")
    }

    @Test(
        "a vault changed behind the store's back: list without a terminal is 75; unlocked it lists with times, and rebuilds the store"
    )
    func staleStore() throws {
        let fixture = try CommandFixture([("github.com", "alice", "s1", "")])
        let vault = fixture.context.vaultPath
        let copy = fixture.root + "/copy.pwtui"
        try FileManager.default.copyItem(atPath: vault, toPath: copy)
        let adding = try RecordedStreams(input: "s3", prompt: ScriptedPrompt(CommandFixture.unlock))
        try AddCredential(services: ["gitlab.com"], username: "carol", title: "", notes: "", rank: 0, generate: false)
            .run(in: CommandContext(vault: copy, environment: fixture.environment, streams: adding.streams))
        try FileManager.default.removeItem(atPath: vault)
        try FileManager.default.copyItem(atPath: copy, toPath: vault)

        let (failure, streams) = try fixture.failure {
            try ListCredentials(services: [], format: .table, all: false).run(in: $0)
        }
        #expect(
            failure?.code == .interactionRequired && streams.output.isEmpty,
            "stale store, no agent, no terminal: \(String(describing: failure))")
        let unlocked = try fixture.run(typing: CommandFixture.unlock) {
            try ListCredentials(services: [], format: .json, all: false).run(in: $0)
        }
        let rows = try Self.rows(unlocked)
        #expect(rows.contains { $0["username"] as? String == "carol" } && rows.first?["created"] is String, "\(rows)")
        let again = try fixture.run { try ListCredentials(services: [], format: .table, all: false).run(in: $0) }
        #expect(again.output.contains("carol"), "the unlock rebuilt the store")
    }

    @Test(
        "with the store off, an unlocked agent answers list and equivalents list; a locked one does not, and 75 says so"
    )
    func fromTheAgent() throws {
        let agent = try AgentInProcessTests.Fixture()
        try FileManager.default.createDirectory(atPath: agent.root + "/config/pwtui", withIntermediateDirectories: true)
        try "identity_store = false\n".write(
            toFile: agent.root + "/config/pwtui/config.toml", atomically: true, encoding: .utf8)
        /// A command's context without a terminal, whose agent is the fixture's.
        func command(_ body: (CommandContext) throws -> Void) throws -> (
            failure: CommandFailure?, streams: RecordedStreams
        ) {
            let recorded = try RecordedStreams()
            let context = CommandContext(
                vault: agent.context.vaultPath, environment: agent.context.environment, streams: recorded.streams)
            context.agentClient = agent.client
            do {
                try body(context)
                return (nil, recorded)
            } catch let failure as CommandFailure {
                return (failure, recorded)
            }
        }
        // add unlocks here (the agent does not add equivalents), before the agent is unlocked.
        let adding = try RecordedStreams(prompt: ScriptedPrompt([.secret("master")]))
        try EditEquivalents.add(
            ["amazon.com", "amazon.de"],
            in: CommandContext(
                vault: agent.context.vaultPath, environment: agent.context.environment, streams: adding.streams))
        #expect(
            try command { try ListCredentials(services: [], format: .table, all: false).run(in: $0) }.failure?.code
                == .interactionRequired,
            "no store, a locked agent, no terminal")
        #expect(try agent.unlock() == .done)
        let table = try command { try ListCredentials(services: [], format: .table, all: false).run(in: $0) }
        #expect(table.failure == nil && table.streams.output.contains("octocat"), "\(table.streams.output)")
        let groups = try command { try EditEquivalents.list(userOnly: true, in: $0) }
        #expect(
            groups.failure == nil && groups.streams.output == "amazon.com amazon.de\n",
            "\(groups.streams.output) \(groups.streams.messages)")
        _ = try agent.client.request(.lock)
        let locked = try command { try ListCredentials(services: [], format: .table, all: false).run(in: $0) }
        #expect(
            locked.failure?.code == .interactionRequired && locked.streams.output.isEmpty,
            "a locked agent cannot answer")
    }
}
