// The picker's detail screen (→ on the list) answered by an unlocked agent in the same process:
// no master password, the secrets fetched only on `r`, a restore made by the agent, a credential
// bound to other programs refused on the screen, and a locked agent meaning the password again.

import Foundation
import Platform
@testable import Commands
import ServiceMatching
import Testing
import TUI
import TUITestDoubles
import VaultAgent
import VaultCrypto
import VaultModel

@Suite("Picker's details from the agent, in process")
struct PickerDetailsFromAgentInProcessTests {
    static let size = TerminalSize(rows: 30, columns: 100)

    /// The fixture's vault with GitHub's password changed once (a history) and a secret field.
    static func fixture() throws -> AgentInProcessTests.Fixture {
        let fixture = try AgentInProcessTests.Fixture()
        let vault = try Vault.open(
            at: fixture.context.vaultPath, password: try SecureBytes(copying: Array("master".utf8)))
        let github = try #require(vault.contents.credentials.first)
        try vault.replaceSecret(of: github.id, with: try SecureBytes(copying: Array("gh-new-secret".utf8)))
        try vault.setField(
            of: github.id, name: "recovery code", text: nil, secret: try SecureBytes(copying: Array("RC-1234".utf8)))
        try vault.save()
        #expect(try fixture.unlock() == .done)
        return fixture
    }

    static func flow(_ fixture: AgentInProcessTests.Fixture, _ terminal: GridTerminal) throws -> PickerFlow<
        Vault, Picker.AgentAnswer
    > {
        Picker.flow(
            on: terminal, vaultPath: fixture.context.vaultPath, requests: [try ServiceIdentifier("github.com")],
            context: fixture.context, agentField: .password)
    }

    static func detailFrames(_ terminal: GridTerminal) -> [String] {
        terminal.frames.map(\.text).filter { $0.contains("Previous passwords") }
    }

    @Test("→ shows the details without the master password; r reveals every secret, Esc goes back, Enter uses it")
    func detailsWithoutUnlocking() throws {
        let fixture = try Self.fixture()
        let terminal = GridTerminal(size: Self.size)
        terminal.enqueue(.key(.right), .key(.text("r")), .key(.text("r")), .key(.escape))
        terminal.enqueue(.key(.right), .key(.enter))
        guard case .answeredWithoutUnlocking(let answer) = try Self.flow(fixture, terminal).run() else {
            Issue.record("Enter on the details was not answered by the agent")
            return
        }
        #expect(answer.identity.username == "octocat")
        guard let payload = answer.payload.take() else {
            Issue.record("no payload")
            return
        }
        #expect(AgentInProcessTests.text(payload) == "gh-new-secret\n")
        #expect(terminal.frames.allSatisfy { !$0.text.contains("Master password") }, "never asked")

        let details = Self.detailFrames(terminal)
        let masked = try #require(details.first)
        #expect(masked.contains("octocat") && masked.contains("github.com"))
        #expect(masked.contains("Previous passwords (1)"), "the history's structure came from the agent")
        #expect(masked.contains("recovery code: " + CredentialDetailScreen.mask))
        #expect(!masked.contains("gh-new-secret") && !masked.contains("RC-1234"), "masked until r")
        let revealed = try #require(details.first { $0.contains("gh-new-secret") }, "r reveals the password")
        #expect(revealed.contains("gh-secret"), "and the previous one")
        #expect(revealed.contains("recovery code: RC-1234"), "and the secret field")
        let afterHiding = try #require(details.last { !$0.contains("gh-new-secret") })
        #expect(!afterHiding.contains("RC-1234"), "r again: dots over every secret")
    }

    @Test("Tab, R, y restores the previous password through the agent; the screen shows the new history")
    func restoreThroughTheAgent() throws {
        let fixture = try Self.fixture()
        let terminal = GridTerminal(size: Self.size)
        terminal.enqueue(.key(.right), .key(.text("r")), .key(.tab), .key(.text("R")), .key(.text("y")))
        terminal.enqueue(.key(.escape), .key(.escape))
        guard case .cancelled = try Self.flow(fixture, terminal).run() else {
            Issue.record("not cancelled")
            return
        }
        let last = try #require(Self.detailFrames(terminal).last)
        #expect(last.contains("Restored the password of"), "\(last)")
        #expect(last.contains("Previous passwords (2)"))
        // Still revealed: the secrets fetched again after the restore, the old one current now.
        let passwordLine = try #require(last.split(separator: "\n").first { $0.contains("Password") })
        #expect(passwordLine.contains("gh-secret") && !passwordLine.contains("gh-new-secret"), "\(passwordLine)")
        // What the agent saved: the file has it.
        let vault = try Vault.open(
            at: fixture.context.vaultPath, password: try SecureBytes(copying: Array("master".utf8)))
        let github = try #require(vault.contents.credentials.first)
        #expect(vault.withSecret(github.secret) { String(decoding: $0, as: UTF8.self) } == "gh-secret")
        #expect(terminal.frames.allSatisfy { !$0.text.contains("Master password") })
    }

    @Test("a credential bound to another program: the details show, r is refused with the agent's reason")
    func boundCredentialIsNotRevealed() throws {
        let fixture = try Self.fixture()
        #expect(try AgentControl.send(.lock, in: fixture.context))
        let vault = try Vault.open(
            at: fixture.context.vaultPath, password: try SecureBytes(copying: Array("master".utf8)))
        let github = try #require(vault.contents.credentials.first)
        try vault.update(github.id) { $0.allowedPrograms = ["git"] }
        try vault.save()
        #expect(try fixture.unlock() == .done)
        let terminal = GridTerminal(size: Self.size)
        terminal.enqueue(.key(.right), .key(.text("r")), .key(.escape), .key(.escape))
        _ = try Self.flow(fixture, terminal).run()
        let details = Self.detailFrames(terminal)
        #expect(!details.isEmpty, "shown: the structure is no secret")
        let refused = try #require(details.last)
        #expect(refused.contains("Not revealed:") && refused.contains(WithheldCredential.phrase), "\(refused)")
        #expect(terminal.frames.allSatisfy { !$0.text.contains("gh-new-secret") && !$0.text.contains("RC-1234") })
    }

    @Test("with the agent locked, → asks for the master password first, as before")
    func lockedAgentAsksForThePassword() throws {
        let fixture = try Self.fixture()
        #expect(try AgentControl.send(.lock, in: fixture.context))
        let terminal = GridTerminal(size: Self.size)
        terminal.enqueue(.key(.right), .key(.escape), .key(.escape))
        _ = try Self.flow(fixture, terminal).run()
        #expect(terminal.frames.contains { $0.text.contains("Master password") })
        #expect(Self.detailFrames(terminal).isEmpty)
    }

    @Test("the agent's outline and reveal: every revealable secret in one order, an SSH key's never")
    func outlineAndReveal() throws {
        let fixture = try Self.fixture()
        let path = fixture.context.vaultPath
        let id = try #require(try fixture.vault().contents.credentials.first?.id)
        let outline = try #require(try VaultAccess.agentOutline(of: id, in: path, context: fixture.context))
        #expect(outline.secretCount == 3, "password, one previous, one secret field")
        let credential = try outline.credential()
        #expect(credential.previousSecrets.count == 1 && credential.fields.first?.isSecret == true)
        let numbers = [credential.secret, credential.history[0].secret, credential.fields[0].secret!].map {
            outline.number(of: $0)
        }
        #expect(numbers == [0, 1, 2])
        guard let revealed = try VaultAccess.agentReveal(of: id, in: path, context: fixture.context) else {
            Issue.record("the agent did not reveal")
            return
        }
        #expect(revealed.outline == outline && revealed.lengths == [13, 9, 7])
        #expect(AgentInProcessTests.text(revealed.secrets) == "gh-new-secret" + "gh-secret" + "RC-1234")

        // An SSH key: its private key is never among what may be revealed.
        var key = credential
        key.kind = .sshKey
        key.fields = []
        #expect(CredentialOutline.revealable(key).isEmpty)
        #expect(CredentialOutline(key).secretCount == 0)
        #expect(try CredentialOutline(key).credential().secret != credential.secret)
        #expect(CredentialOutline(key).number(of: try CredentialOutline(key).credential().secret) == nil)
    }
}

extension AgentInProcessTests.Fixture {
    func vault() throws -> Vault {
        try Vault.open(at: context.vaultPath, password: try SecureBytes(copying: Array("master".utf8)))
    }
}
