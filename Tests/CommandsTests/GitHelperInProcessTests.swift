// git's credential helper (`GitCredentialHelper`) in process: git's request on one pipe, the
// answer read from another, the vault behind an agent in the same process. What needs real git
// (the protocol as git speaks it, clones) stays in CommandLineTests/GitProtocolTests.

import Foundation
import Platform
import TUI
import TUITestDoubles
import Testing
import VaultAgent
import VaultCrypto
import VaultModel
@testable import Commands

@Suite("git's helper, in process")
struct GitHelperInProcessTests {
    /// Runs `operation` with `request` (git's key=value lines) and returns what it answered.
    static func helper(_ operation: String, _ request: String, context: CommandContext) throws -> String {
        let recorded = try RecordedStreams(input: request + "\n", messagesAreSeen: false)
        context.streams = recorded.streams
        try GitCredentialHelper(context: context).run(operation: operation)
        return recorded.output
    }

    @Test("get: the unlocked agent answers with username= and password= for the host")
    func getThroughTheAgent() throws {
        let fixture = try AgentInProcessTests.Fixture()
        _ = try fixture.unlock()
        let answer = try Self.helper("get", "protocol=https\nhost=github.com", context: fixture.context)
        #expect(answer == "username=octocat\npassword=gh-secret\n")
    }

    @Test("get with no terminal and no match answers nothing: git moves on to its own prompt")
    func nothingForAStranger() throws {
        let fixture = try AgentInProcessTests.Fixture()
        _ = try fixture.unlock()
        #expect(try Self.helper("get", "protocol=https\nhost=gitlab.com", context: fixture.context) == "")
    }

    @Test("with a path (useHttpPath), a credential saved for the host alone does not answer")
    func pathScopedGet() throws {
        let fixture = try AgentInProcessTests.Fixture()
        _ = try fixture.unlock()
        #expect(
            try Self.helper("get", "protocol=https\nhost=github.com\npath=org/repo.git", context: fixture.context) == ""
        )
    }

    @Test("store adds a new login through the agent; the next get answers it; an unknown operation is ignored")
    func storeThenGet() throws {
        let fixture = try AgentInProcessTests.Fixture()
        _ = try fixture.unlock()
        let login = "protocol=https\nhost=gitlab.com\nusername=tanuki\npassword=gl-secret"
        #expect(try Self.helper("store", login, context: fixture.context) == "")
        #expect(
            try Self.helper("get", "protocol=https\nhost=gitlab.com", context: fixture.context)
                == "username=tanuki\npassword=gl-secret\n")
        #expect(try Self.helper("capability", login, context: fixture.context) == "")
        let reopened = try Vault.open(
            at: fixture.context.vaultPath, password: try SecureBytes(copying: Array("master".utf8)))
        #expect(
            reopened.contents.credentials.filter { $0.username == "tanuki" }.map { $0.services.map(\.text) } == [
                ["https://gitlab.com"]
            ])
    }

    @Test("a credential with a line break in its password is never given to git")
    func lineBreaksAreNotCarried() throws {
        let fixture = try AgentInProcessTests.Fixture()
        _ = try fixture.unlock()
        let access = try VaultAccess.open(fixture.context)
        try access.apply(
            .add(services: ["bitbucket.org"], username: "a", title: "", notes: "", rank: 0),
            secret: try SecureBytes(copying: Array("line\nusername=evil".utf8)))
        #expect(try Self.helper("get", "protocol=https\nhost=bitbucket.org", context: fixture.context) == "")
    }

    // MARK: issue 38: a way forward on a terminal, silence without one

    @Test(
        "get, locked with no terminal: silent on a stderr nobody reads (t0303's helper_test_timeout), said on one a person reads"
    )
    func lockedIsSilentUnlessSeen() throws {
        let fixture = try CommandFixture([("github.com", "alice", "alice-pw", "")])
        for seen in [false, true] {
            let recorded = try RecordedStreams(input: "protocol=https\nhost=github.com\n\n", messagesAreSeen: seen)
            fixture.context.streams = recorded.streams
            try GitCredentialHelper(context: fixture.context).run(operation: "get")
            #expect(recorded.output.isEmpty)
            #expect(recorded.messages.isEmpty == !seen, "seen \(seen): \(recorded.messages)")
        }
    }

    @Test(
        "Esc in the picker on a list with nothing for the host lets git prompt (nothing answered); among matches it is quit=1"
    )
    func escapeOnAnEmptyListLetsGitPrompt() throws {
        let fixture = try CommandFixture([("github.com", "alice", "alice-pw", "")])
        let stranger = try fixture.run(
            input: "protocol=https\nhost=gitlab.example\n\n", screen: GridTerminal(script: [.key(.escape)])
        ) { try GitCredentialHelper(context: $0).run(operation: "get") }
        #expect(stranger.output == "", "\(stranger.output)")
        let known = try fixture.run(
            input: "protocol=https\nhost=github.com\n\n", screen: GridTerminal(script: [.key(.escape)])
        ) { try GitCredentialHelper(context: $0).run(operation: "get") }
        #expect(known.output == "quit=1\n", "\(known.output)")
    }

    @Test(
        "erase on a terminal offers a new password for the rejected credential: typed twice, saved, the old one in its history"
    )
    func eraseOffersANewPassword() throws {
        let fixture = try CommandFixture([("github.com", "alice", "alice-pw", "")])
        let recorded = try fixture.run(
            input: "protocol=https\nhost=github.com\nusername=alice\npassword=alice-pw\n\n",
            typing: [.yes, .secret("alice-new"), .secret("alice-new")], passwordOnDescriptor: true
        ) { try GitCredentialHelper(context: $0).run(operation: "erase") }
        let asked = recorded.prompt?.transcript ?? []
        #expect(asked.first?.contains("Type a new password") == true, "\(asked)")
        let vault = try fixture.vault()
        let credential = try #require(vault.contents.credentials.first)
        #expect(vault.withSecret(credential.secret) { String(decoding: $0, as: UTF8.self) } == "alice-new")
        let previous = try #require(credential.previousSecrets.first)
        #expect(vault.withSecret(previous.secret) { String(decoding: $0, as: UTF8.self) } == "alice-pw")
        // No longer set aside: git's next get answers the new password.
        let next = try fixture.run(input: "protocol=https\nhost=github.com\n\n", passwordOnDescriptor: true) {
            try GitCredentialHelper(context: $0).run(operation: "get")
        }
        #expect(next.output == "username=alice\npassword=alice-new\n", "\(next.output)")
    }

    @Test("with the identity store off, the unlocked agent's list tells an empty picker from one with matches")
    func escapeWithTheAgentsList() throws {
        let fixture = try AgentInProcessTests.Fixture(settings: "identity_store = false\n")
        _ = try fixture.unlock()
        #expect((try? fixture.context.currentIdentityStore()) == nil, "the picker lists the agent's identities")
        func escape(_ host: String) throws -> String {
            let recorded = try RecordedStreams(
                input: "protocol=https\nhost=\(host)\n\n", messagesAreSeen: false,
                screen: GridTerminal(script: [.key(.escape)]))
            fixture.context.streams = recorded.streams
            try GitCredentialHelper(context: fixture.context).run(operation: "get")
            return recorded.output
        }
        #expect(try escape("gitlab.example") == "", "nothing listed for it: git asks")
        // github.com's credential is a parent domain's for api.github.com: listed, not given unasked.
        #expect(try escape("api.github.com") == "quit=1\n")
    }
}
