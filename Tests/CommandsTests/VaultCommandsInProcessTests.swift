// `init`, `passwd` and `doctor` in process (`CreateVault`, `ChangeMasterPassword`, `Doctor`): the
// passwords typed at a scripted prompt, stdout and stderr read back whole. `init` and `passwd`
// pay the real 64 MiB Argon2id here: the cost they write is what they are tested for.

import Foundation
import Platform
@testable import Commands
import PwtuiTestSupport
import TUITestDoubles
import Testing
import TUI
import VaultCrypto
import VaultModel

@Suite("init, passwd and doctor, in process")
struct VaultCommandsInProcessTests {
    static let newPassword = "seven wild ferns under a quiet bridge"

    /// A context for a vault that does not exist yet, beside the fixture's.
    static func newVaultSession(_ fixture: CommandFixture, _ recorded: RecordedStreams) -> CommandContext {
        CommandContext(
            vault: fixture.root + "/new/vault.pwtui", environment: fixture.environment, streams: recorded.streams)
    }

    @Test("init on a terminal: typed twice, its strength said, the vault written at the cost asked; nothing on stdout")
    func initTypedTwice() throws {
        let fixture = try CommandFixture()
        let prompt = ScriptedPrompt([.secret(Self.newPassword), .secret(Self.newPassword)])
        let recorded = try RecordedStreams(prompt: prompt)
        let context = Self.newVaultSession(fixture, recorded)
        try CreateVault(parameters: .interactive).run(in: context)
        #expect(prompt.transcript == ["New master password: ", "Repeat the master password: "])
        #expect(recorded.messages.count == 2)
        #expect(recorded.messages.first?.hasPrefix("Master password strength: ") == true)
        #expect(recorded.messages.last == "Created \(context.vaultPath) (unlock cost: 3 passes, 64 MiB).")
        #expect(recorded.output.isEmpty)
        let vault = try Vault.open(at: context.vaultPath, password: try SecureBytes(copying: Self.newPassword.utf8))
        #expect(vault.header.kdf == .interactive && vault.contents.credentials.isEmpty)
        // A second init refuses to touch it.
        let again = try RecordedStreams(prompt: ScriptedPrompt([.secret(Self.newPassword), .secret(Self.newPassword)]))
        #expect(throws: VaultError.self) {
            try CreateVault(parameters: .interactive).run(in: Self.newVaultSession(fixture, again))
        }
    }

    @Test("init: entries that differ three times are a usage error, and no file is written")
    func initEntriesDiffer() throws {
        let fixture = try CommandFixture()
        let prompt = ScriptedPrompt(
            (0 ..< 3).flatMap { [ScriptedPrompt.Answer.secret("one \($0)"), .secret("other \($0)")] })
        let recorded = try RecordedStreams(prompt: prompt)
        let context = Self.newVaultSession(fixture, recorded)
        let failure = #expect(throws: CommandFailure.self) {
            try CreateVault(parameters: .interactive).run(in: context)
        }
        #expect(failure?.code == .usage && failure?.message == "the master password was not confirmed")
        #expect(prompt.transcript.filter { $0 == "The two entries differ; again.\n" }.count == 3)
        #expect(!FileManager.default.fileExists(atPath: context.vaultPath))
    }

    @Test(
        "init without a terminal or a descriptor: 75, naming --master-password-fd; a weak password refused unless --allow-weak"
    )
    func initWithoutTerminalAndWeak() throws {
        let fixture = try CommandFixture()
        let none = try RecordedStreams()
        let failure = #expect(throws: CommandFailure.self) {
            try CreateVault(parameters: .interactive).run(in: Self.newVaultSession(fixture, none))
        }
        #expect(
            failure?.code == .interactionRequired && failure?.message.contains("--master-password-fd N") == true,
            "\(String(describing: failure))")

        let weak = try RecordedStreams(prompt: ScriptedPrompt([.secret("Password1234!"), .secret("Password1234!")]))
        let refused = #expect(throws: CommandFailure.self) {
            try CreateVault(parameters: .interactive).run(in: Self.newVaultSession(fixture, weak))
        }
        #expect(refused?.code == .usage && refused?.message.contains("--allow-weak") == true)
        let kept = try RecordedStreams(prompt: ScriptedPrompt([.secret("Password1234!"), .secret("Password1234!")]))
        let context = Self.newVaultSession(fixture, kept)
        try CreateVault(parameters: .interactive, allowWeak: true).run(in: context)
        #expect(kept.messages.contains("Kept a weak master password (--allow-weak)."))
        #expect(FileManager.default.fileExists(atPath: context.vaultPath))
    }

    @Test(
        "passwd: the current password, then the new one twice; the old one no longer opens it, and a cheap vault comes out at the floor"
    )
    func passwdOnTheTerminal() throws {
        let fixture = try CommandFixture([("github.com", "octocat", "gh-secret", "GitHub")])
        let recorded = try fixture.run(
            typing: CommandFixture.unlock + [.secret(Self.newPassword), .secret(Self.newPassword)]
        ) {
            try ChangeMasterPassword(newPasswordFD: nil, parameters: nil).run(in: $0)
        }
        #expect(recorded.messages.last == "Master password changed for \(fixture.context.vaultPath).")
        #expect(throws: VaultError.self) { try fixture.vault() }
        let vault = try fixture.vault(password: Self.newPassword)
        #expect(vault.contents.credentials.map(\.username) == ["octocat"])
        #expect(vault.header.kdf == .minimumForWriting)
    }

    @Test("passwd: a wrong current password three times is 'wrong password', and the vault keeps its password")
    func passwdWrongPassword() throws {
        let fixture = try CommandFixture()
        let (failure, streams) = try fixture.failure(typing: [.secret("no"), .secret("nope"), .secret("still no")]) {
            try ChangeMasterPassword(newPasswordFD: nil, parameters: nil).run(in: $0)
        }
        #expect(failure?.code == .wrongPassword, "\(String(describing: failure))")
        #expect(streams.messages.filter { $0.hasPrefix("Wrong master password; try again") }.count == 2)
        #expect(try fixture.vault().contents.credentials.isEmpty)
    }

    @Test("doctor: which vault and what named it, then 'looks fine', or each finding with the command that fixes it")
    func doctor() throws {
        let fixture = try CommandFixture()
        let path = fixture.context.vaultPath
        let fine = try fixture.run { try Doctor().run(in: $0) }
        #expect(fine.output == "vault: \(path) (named by --vault)\nok: \(path) looks fine\n")
        #expect(chmod(path, 0o644) == 0)
        let found = try fixture.run { try Doctor().run(in: $0) }
        #expect(
            found.output
                == "vault: \(path) (named by --vault)\n- \(path) can be read by other users (mode 644)\n  run: chmod 600 \(ShellWord.quoted(path))\n"
        )
    }
}
