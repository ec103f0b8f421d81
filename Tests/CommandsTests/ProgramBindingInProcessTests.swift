// Credentials bound to programs (`edit --allow-program`): given only to a request whose process
// chain names one of them, here and through the agent, whose asker is the connection's peer.
// The chain is the context's (`CommandContext.processChain`), set per test to the programs a
// real request would come from; ProcessChainTests reads real and fake /proc trees.

import Foundation
@testable import Commands
import Platform
import PwtuiTestSupport
import ServiceMatching
import Testing
import VaultAgent
import VaultCrypto
import VaultModel

@Suite("credentials bound to programs, in process")
struct ProgramBindingInProcessTests {
    static let fromGit = chain("git-credential-pwtui", "git", "bash")
    static let fromShell = chain("pwtui", "bash", "tmux: server")

    static func chain(_ names: String...) -> ProcessChain {
        ProcessChain(
            members: names.enumerated().map {
                ProcessChain.Member(id: Int32(100 - $0.offset), name: $0.element, executable: nil, commandLine: [])
            })
    }

    /// A token for github.com bound to `programs` (and, with `webLogin`, the site's own password, unbound).
    static func fixture(bound programs: [String] = ["git"], webLogin: Bool = false) throws -> CommandFixture {
        var logins = [("github.com", "octocat", "ghp-token", "GitHub token")]
        if webLogin { logins.append(("github.com", "octocat@example.org", "web-password", "GitHub web")) }
        let fixture = try CommandFixture(logins)
        try fixture.run(typing: CommandFixture.unlock) {
            var edits = CredentialChange.Edits()
            edits.allowPrograms = programs
            try EditCredential(id: "GitHub token", edits: edits, generate: false).run(in: $0)
        }
        return fixture
    }

    static func get(_ words: [String], id: String? = nil, from chain: ProcessChain, in fixture: CommandFixture) throws
        -> (answer: String, failure: CommandFailure?)
    {
        fixture.askingChain = chain
        let (failure, streams) = try fixture.failure(typing: CommandFixture.unlock) {
            try GetCredential.words(words, id: id).run(in: $0)
        }
        return (streams.output, failure)
    }

    /// The answer, when the command did not fail.
    static func given(_ words: [String], id: String? = nil, from chain: ProcessChain, in fixture: CommandFixture) throws
        -> String?
    {
        let (answer, failure) = try get(words, id: id, from: chain, in: fixture)
        return failure == nil ? answer : nil
    }

    @Test("edit --allow-program binds: kept in the file, listed by show (text and JSON), given to git's chain only")
    func boundToGit() throws {
        let fixture = try Self.fixture()
        #expect(try fixture.vault().contents.credentials.first?.allowedPrograms == ["git"])
        let shown = try fixture.run(typing: CommandFixture.unlock) {
            try ShowCredential(reference: "GitHub token", reveal: false, format: .text).run(in: $0)
        }.output
        #expect(shown.contains("given to    git"), "\(shown)")
        let json = try fixture.run(typing: CommandFixture.unlock) {
            try ShowCredential(reference: "GitHub token", reveal: false, format: .json).run(in: $0)
        }.output
        #expect(json.contains("\"allowedPrograms\":[\"git\"]"), "\(json)")

        #expect(try Self.given(["github.com"], from: Self.fromGit, in: fixture) == "ghp-token\n")
        let refused = try Self.get(["github.com"], from: Self.fromShell, in: fixture)
        #expect(refused.answer.isEmpty)
        #expect(refused.failure?.code == .noMatch)
        let message = refused.failure?.message ?? ""
        #expect(message.contains("GitHub token") && message.contains("given only to git"), "\(message)")
        #expect(message.contains("pwtui ← bash ← tmux: server") && message.contains("--allow-program"), "\(message)")
        #expect(!message.contains("ghp-token"))
    }

    @Test("a withheld credential is passed over: the site's unbound one answers the shell, the bound one git")
    func unboundAnswersInstead() throws {
        let fixture = try Self.fixture(webLogin: true)
        #expect(try Self.given(["github.com"], from: Self.fromShell, in: fixture) == "web-password\n")
        // Both are given to git; an id picks the token.
        let token = try #require(try fixture.vault().contents.credentials.first { $0.title == "GitHub token" })
        #expect(
            try Self.given(["github.com"], id: token.id.uuidString, from: Self.fromGit, in: fixture) == "ghp-token\n")
        let byID = try Self.get(["github.com"], id: token.id.uuidString, from: Self.fromShell, in: fixture)
        #expect(byID.failure?.code == .noMatch && byID.answer.isEmpty, "an id names it, but does not unbind it")
        let byTitle = try Self.get(["GitHub token"], from: Self.fromShell, in: fixture)
        #expect(
            byTitle.failure?.message.contains("given only to git") == true, "\(String(describing: byTitle.failure))")
    }

    @Test("show --reveal is refused to another program; without --reveal the details are shown")
    func revealRefused() throws {
        let fixture = try Self.fixture()
        fixture.askingChain = Self.fromShell
        let (failure, streams) = try fixture.failure(typing: CommandFixture.unlock) {
            try ShowCredential(reference: "GitHub token", reveal: true, format: .text).run(in: $0)
        }
        #expect(failure?.code == .noMatch && !streams.output.contains("ghp-token"))
        fixture.askingChain = Self.fromGit
        #expect(
            try fixture.run(typing: CommandFixture.unlock) {
                try ShowCredential(reference: "GitHub token", reveal: true, format: .text).run(in: $0)
            }.output.contains("ghp-token"))
    }

    @Test("--disallow-program unbinds; a name not bound, a path and an empty name are refused with what to do")
    func disallowAndMistakes() throws {
        let fixture = try Self.fixture(bound: ["git", "docker-credential-pwtui"])
        func edit(allow: [String] = [], disallow: [String] = []) throws -> CommandFailure? {
            try fixture.failure(typing: CommandFixture.unlock) {
                var edits = CredentialChange.Edits()
                edits.allowPrograms = allow
                edits.disallowPrograms = disallow
                try EditCredential(id: "GitHub token", edits: edits, generate: false).run(in: $0)
            }.failure
        }
        #expect(try edit(disallow: ["git"]).map(\.message) == nil)
        #expect(try fixture.vault().contents.credentials.first?.allowedPrograms == ["docker-credential-pwtui"])
        let notBound = try edit(disallow: ["ssh"])
        #expect(notBound?.code == .usage && notBound?.message.contains("docker-credential-pwtui") == true)
        let path = try edit(allow: ["/usr/bin/git"])
        #expect(path?.code == .usage && path?.message.contains("give 'git'") == true, "\(String(describing: path))")
        #expect(try edit(allow: ["two words"])?.code == .usage)
        #expect(try fixture.vault().contents.credentials.first?.allowedPrograms == ["docker-credential-pwtui"])
        #expect(try edit(disallow: ["docker-credential-pwtui"]).map(\.message) == nil)
        #expect(
            try Self.given(["github.com"], from: Self.fromShell, in: fixture) == "ghp-token\n", "unbound: any program")
    }

    @Test("through the agent the asker is the connection's peer: refused to the shell's chain, given to git's")
    func throughTheAgent() throws {
        let fixture = try AgentInProcessTests.Fixture()
        _ = try fixture.unlock()
        let path = fixture.context.vaultPath
        var edits = CredentialChange.Edits()
        edits.allowPrograms = ["git"]
        let vault = try Vault.open(at: path, password: try SecureBytes(copying: Array("master".utf8)))
        let id = try #require(vault.contents.credentials.first?.id)
        _ = try fixture.client.ask(
            .write(vault: path, change: .edit(id: id.uuidString, edits)), payload: try SecureBytes(zeros: 0))

        let query = CredentialQuery(services: [try ServiceIdentifier("github.com")])
        fixture.context.processChain = { _ in Self.fromShell }
        let refusal = #expect(throws: AgentRefusal.self) {
            _ = try fixture.client.get(query, field: .password, vault: path)
        }
        #expect(refusal?.status == .noMatch && refusal?.message.contains("pwtui ← bash") == true)
        fixture.context.processChain = { _ in Self.fromGit }
        guard let answer = try fixture.client.get(query, field: .password, vault: path) else {
            Issue.record("the agent declined")
            return
        }
        #expect(AgentInProcessTests.text(answer.payload) == "gh-secret\n")
        // `run`'s and `inject`'s request for several values at once obeys it too.
        let values = AgentRequest.values(vault: path, ids: [id.uuidString], fields: [.username])
        guard let given = try fixture.client.ask(values), case .values(let lengths) = given.body else {
            Issue.record("the agent declined the values")
            return
        }
        #expect(lengths == [7] && AgentInProcessTests.text(given.payload) == "octocat")
        fixture.context.processChain = { _ in Self.fromShell }
        #expect(throws: AgentRefusal.self) { _ = try fixture.client.ask(values) }
        // A peer the agent cannot name is nobody's program: the bound credential is withheld.
        fixture.context.processChain = { _ in ProcessChain(members: []) }
        #expect(throws: AgentRefusal.self) { _ = try fixture.client.get(query, field: .password, vault: path) }
    }

    @Test("through the agent a peer that changed since it connected is refused, even when it is git now")
    func changedPeer() throws {
        let fixture = try AgentInProcessTests.Fixture()
        _ = try fixture.unlock()
        let path = fixture.context.vaultPath
        var edits = CredentialChange.Edits()
        edits.allowPrograms = ["git"]
        let vault = try Vault.open(at: path, password: try SecureBytes(copying: Array("master".utf8)))
        let id = try #require(vault.contents.credentials.first?.id)
        _ = try fixture.client.ask(
            .write(vault: path, change: .edit(id: id.uuidString, edits)), payload: try SecureBytes(zeros: 0))
        // The process that connected exec'd git before its child sent the request: /proc names
        // git now, but it is not the process that connected.
        fixture.context.processChain = { _ in Self.fromGit }
        fixture.context.peerIsUnchanged = { _ in false }
        let query = CredentialQuery(services: [try ServiceIdentifier("github.com")])
        let refusal = #expect(throws: AgentRefusal.self) {
            _ = try fixture.client.get(query, field: .password, vault: path)
        }
        #expect(refusal?.status == .noMatch && refusal?.message.contains("no longer the one that asks") == true)
        fixture.context.peerIsUnchanged = { _ in true }
        #expect(try fixture.client.get(query, field: .password, vault: path) != nil)
    }
}
