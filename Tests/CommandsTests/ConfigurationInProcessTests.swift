// `configure` in process (`Configuration`): the screen on a scripted terminal, `--use-vault`, and
// what the settings hold afterwards.

import Foundation
import Platform
@testable import Commands
import PwtuiTestSupport
import TUITestDoubles
import Testing
import TUI
import VaultModel

@Suite("configure, in process")
struct ConfigurationInProcessTests {
    @Test("configure --use-vault PATH names an existing vault in the settings, and says what still overrides it")
    func useVault() throws {
        let fixture = try CommandFixture()
        let recorded = try fixture.run { try Configuration.nameVault(fixture.context.vaultPath, in: $0) }
        #expect(
            recorded.messages == [
                "Settings saved to \(fixture.context.configPath): later commands open \(fixture.context.vaultPath)."
            ])
        #expect(try Settings.load(from: fixture.context.configPath).vault == fixture.context.vaultPath)

        let (missing, _) = try fixture.failure { try Configuration.nameVault(fixture.root + "/nothing.pwtui", in: $0) }
        #expect(missing != nil)
        let notAVault = fixture.root + "/notes.txt"
        try "hello".write(toFile: notAVault, atomically: true, encoding: .utf8)
        let (refused, _) = try fixture.failure { try Configuration.nameVault(notAVault, in: $0) }
        #expect(refused != nil)
        #expect(
            try Settings.load(from: fixture.context.configPath).vault == fixture.context.vaultPath,
            "a refusal changes nothing")

        try fixture.run { try Configuration.nameVault("default", in: $0) }
        #expect(try Settings.load(from: fixture.context.configPath).vault == nil)
    }

    @Test(
        "configure: the screen opens without the master password (asked only to re-encrypt); Esc changes nothing, and the terminal is given back"
    )
    func cancelled() throws {
        let fixture = try CommandFixture(settings: "theme = \"default\"\nagent = \"off\"\n")
        let before = try String(contentsOfFile: fixture.context.configPath, encoding: .utf8)
        let screen = GridTerminal(script: [.key(.escape)])
        // No answer to give: a master password asked for would fail the command.
        let (failure, _) = try fixture.failure(typing: [], screen: screen) {
            try Configuration.configure(in: $0)
        }
        #expect(failure?.code == .cancelled && failure?.message == "nothing changed", "\(String(describing: failure))")
        #expect(screen.isClosed)
        #expect(
            screen.frames.last.map { $0.text.lowercased().contains("unlock") } == true,
            "\(screen.frames.last?.text ?? "no frame")")
        #expect(try String(contentsOfFile: fixture.context.configPath, encoding: .utf8) == before)
    }

    @Test(
        "configure's agent step: \"be the desktop keyring too\" writes agent = auto and secret_service = true; the first choice takes it away"
    )
    func desktopKeyringSaved() throws {
        let fixture = try CommandFixture(settings: "agent = \"off\"\n")
        // Unlock cost, theme, clipboard as they are; the agent step's third choice; the summary.
        let keyring = GridTerminal(script: [
            .key(.enter), .key(.enter), .key(.enter), .key(.down), .key(.down), .key(.enter), .key(.enter),
        ])
        try fixture.run(typing: [], screen: keyring) { try Configuration.configure(in: $0) }
        let saved = try Settings.load(from: fixture.context.configPath)
        #expect(saved.secretService && saved.agent == .auto)
        #expect(
            try String(contentsOfFile: fixture.context.configPath, encoding: .utf8).contains("secret_service = true"))

        let off = GridTerminal(script: [
            .key(.enter), .key(.enter), .key(.enter), .key(.up), .key(.up), .key(.enter), .key(.enter),
        ])
        try fixture.run(typing: [], screen: off) { try Configuration.configure(in: $0) }
        let undone = try Settings.load(from: fixture.context.configPath)
        #expect(!undone.secretService && undone.agent == .off)
    }

    @Test("configure without a terminal: 75, and nothing asked")
    func withoutTerminal() throws {
        let fixture = try CommandFixture()
        let (failure, _) = try fixture.failure(typing: nil) { try Configuration.configure(in: $0) }
        #expect(failure?.code == .interactionRequired, "\(String(describing: failure))")
    }
}
