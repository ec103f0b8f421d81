import Foundation
import PwtuiTestSupport
import TUITestDoubles
import Testing
import TUI
import VaultCrypto
import VaultModel

/// The picker marks credentials with a one-time code, and ^T (in the help bar then) hands over
/// the code instead of the password: after unlocking, or answered by the agent from the preview.
@Suite("One-time codes in the picker")
struct OneTimeCodePickerTests {
    /// The sample vault with an authenticator key on its first GitHub credential.
    static func sampleWithCode() throws -> (SampleVault, UUID) {
        let sample = try SampleVault()
        let github = try #require(sample.vault.contents.credentials.first { $0.title == "GitHub" })
        try sample.vault.setOneTimeKey(
            of: github.id, to: .standard, key: try SecureBytes(copying: Array("12345678901234567890".utf8)))
        try sample.vault.save()
        return (sample, github.id)
    }

    @Test("The credential with a key shows [code]; ^T on it ends the flow asking for its code")
    func markedAndChosen() throws {
        let (sample, id) = try Self.sampleWithCode()
        let terminal = GridTerminal(size: TerminalSize(rows: 16, columns: 100))
        terminal.type(SampleVault.password)
        terminal.press(.enter, .control("t"))
        guard case .chosenCode(_, let credential) = try sample.flow(terminal, request: "https://github.com/login").run()
        else {
            Issue.record("^T must choose the code")
            return
        }
        #expect(credential.id == id)
        let list = try #require(terminal.frames.last { $0.text.contains("Matches for") })
        let rows = list.text.split(separator: "\n")
        #expect(rows.contains { $0.contains("GitHub ") && $0.contains("[code]") }, "\(list.text)")
        #expect(rows.filter { $0.contains("[code]") }.count == 1, "only the one with a key")
        #expect(list.text.contains("^T code"), "the key is in the help bar")
    }

    @Test("^T on a credential without a key does nothing; without any key the help bar does not offer it")
    func onlyWhereThereIsOne() throws {
        let (sample, _) = try Self.sampleWithCode()
        let terminal = GridTerminal(size: TerminalSize(rows: 16, columns: 100))
        terminal.type(SampleVault.password)
        terminal.press(.enter, .down, .control("t"), .enter)
        guard case .chosen(_, let credential) = try sample.flow(terminal, request: "https://github.com/login").run()
        else {
            Issue.record("Enter after an ignored ^T chooses the password")
            return
        }
        #expect(credential.totp == nil)
        let plain = try SampleVault()
        let other = GridTerminal(size: TerminalSize(rows: 16, columns: 100))
        other.type(SampleVault.password)
        other.press(.enter, .enter)
        _ = try plain.flow(other, request: "https://github.com/login").run()
        #expect(!(other.frames.last { $0.text.contains("Matches for") }?.text.contains("^T") ?? true))
    }

    @Test("From the preview, ^T is answered without unlocking by the code's own answer")
    func answeredByTheAgent() throws {
        let (sample, id) = try Self.sampleWithCode()
        let terminal = GridTerminal(size: TerminalSize(rows: 16, columns: 100))
        terminal.press(.control("t"))
        var passwordsAsked = 0, codesAsked = 0
        let flow = PickerFlow<Vault, String>(
            terminal: terminal, vaultPath: sample.path, requestLabel: "https://github.com/login",
            preview: try sample.ranked(for: "https://github.com/login"),
            answerWithoutUnlocking: { _ in
                passwordsAsked += 1; return "password"
            },
            codeWithoutUnlocking: { asked in
                codesAsked += 1; return asked == id ? "code" : nil
            },
            unlock: { try Vault.open(at: sample.path, password: $0) },
            rank: { SampleVault.rank($0, for: []) }, credential: { $0.contents.credential(withID: $1) })
        guard case .answeredWithoutUnlocking(let answer) = try flow.run() else {
            Issue.record("the code's answer must end the flow")
            return
        }
        #expect(answer == "code" && codesAsked == 1 && passwordsAsked == 0)
    }
}
