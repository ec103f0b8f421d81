// init and passwd say how strong the master password is (issue 9, fix 9), as the wizard does, and
// refuse one under the minimum unless --allow-weak (issue 16), in process (`CreateVault`,
// `ChangeMasterPassword`, the passwords typed at a scripted prompt). init pays the real cost.

import Foundation
@testable import Commands
import TUITestDoubles
import Testing
import TUI
import VaultCrypto
import VaultModel

@Suite("master password strength, in process")
struct PasswordStrengthInProcessTests {
    /// `init --kdf interactive [--allow-weak]` of a vault beside the fixture's, `password` typed twice.
    static func create(
        _ password: String, allowWeak: Bool = false,
        in fixture: CommandFixture
    ) throws -> (failure: CommandFailure?, streams: RecordedStreams, path: String) {
        let recorded = try RecordedStreams(prompt: ScriptedPrompt([.secret(password), .secret(password)]))
        let context = CommandContext(
            vault: fixture.root + "/new/vault.pwtui", environment: fixture.environment, streams: recorded.streams)
        do {
            try CreateVault(parameters: .interactive, allowWeak: allowWeak).run(in: context)
            return (nil, recorded, context.vaultPath)
        } catch let failure as CommandFailure {
            return (failure, recorded, context.vaultPath)
        }
    }

    @Test(
        "init rates Password1234! weak and names why, never showing it; a fair one (40 bits and more) needs no --allow-weak"
    )
    func initRates() throws {
        let fixture = try CommandFixture()
        let weak = try Self.create("Password1234!", allowWeak: true, in: fixture)
        #expect(weak.failure == nil)
        #expect(weak.streams.errorText.contains("Master password strength: weak (about "), "\(weak.streams.messages)")
        #expect(weak.streams.errorText.contains("a common word or password"), "\(weak.streams.messages)")
        #expect(!weak.streams.errorText.contains("Password1234!"), "the password itself is never shown")
        try FileManager.default.removeItem(atPath: weak.path)
        let fair = try Self.create("a new master password", in: fixture)
        #expect(
            fair.failure == nil && fair.streams.errorText.contains("Master password strength: fair (about "),
            "\(fair.streams.messages)")
    }

    @Test("init refuses a weak master password with 64, saying the minimum and what would do; no vault is made")
    func initRefuses() throws {
        let fixture = try CommandFixture()
        let refused = try Self.create("Password1234!", in: fixture)
        let said = (refused.failure?.message ?? "") + "\n" + refused.streams.errorText
        #expect(refused.failure?.code == .usage, "\(said)")
        #expect(
            said.contains("too weak: about ") && said.contains("at least 40") && said.contains("4 random words")
                && said.contains("--allow-weak"), "\(said)")
        #expect(!said.contains("Password1234!"), "the password itself is never shown")
        #expect(!FileManager.default.fileExists(atPath: refused.path), "no vault is created")
    }

    @Test(
        "passwd rates a five-word passphrase strong; refuses a weak one with 64, the vault unchanged; --allow-weak keeps it"
    )
    func passwd() throws {
        let fixture = try CommandFixture([("github.com", "alice", "s3cret", "")])
        let before = FileManager.default.contents(atPath: fixture.context.vaultPath)
        let (refused, streams) = try fixture.failure(
            typing: CommandFixture.unlock + [.secret("hunter2"), .secret("hunter2")]
        ) {
            try ChangeMasterPassword(newPasswordFD: nil, parameters: nil).run(in: $0)
        }
        let said = (refused?.message ?? "") + "\n" + streams.errorText
        #expect(
            refused?.code == .usage && said.contains("too weak: about ") && said.contains("--allow-weak"), "\(said)")
        #expect(FileManager.default.contents(atPath: fixture.context.vaultPath) == before, "the vault is unchanged")

        let strong = "tiger lamp orbit velvet seven"
        let changed = try fixture.run(typing: CommandFixture.unlock + [.secret(strong), .secret(strong)]) {
            try ChangeMasterPassword(newPasswordFD: nil, parameters: nil).run(in: $0)
        }
        #expect(changed.errorText.contains("New master password strength: strong (about "), "\(changed.messages)")
        try fixture.run(typing: [.secret(strong), .secret("hunter2"), .secret("hunter2")]) {
            try ChangeMasterPassword(newPasswordFD: nil, parameters: nil, allowWeak: true).run(in: $0)
        }
        #expect(try fixture.vault(password: "hunter2").contents.credentials.map(\.username) == ["alice"])
    }
}
