// git's credential helper (`GitCredentialHelper`) in process: git's request on one pipe, the
// answer read from another, the vault behind an agent in the same process. What needs real git
// (the protocol as git speaks it, clones) stays in CommandLineTests/GitProtocolTests.

import Foundation
import Platform
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
}
