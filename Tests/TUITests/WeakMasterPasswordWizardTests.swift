// The first-run wizard's version of `--allow-weak` (issue 16): a master password under the
// minimum is refused once with a warning, and kept only when Enter is pressed again on it.

import Foundation
import Passwords
import TUITestDoubles
import Testing
import TUI
import VaultCrypto
import VaultModel

@Suite struct WeakMasterPasswordWizardTests {
    static let warning = "Under the \(MasterPasswordPolicy.minimumBits)-bit minimum"

    /// Runs the first-run wizard over what was queued on `terminal`; the choices and the password.
    func run(_ terminal: GridTerminal) throws -> (ConfigurationScreen.Choices?, String) {
        let options = KDFCalibration.options(floorSeconds: 0.065)
        var screen = try ConfigurationScreen(
            firstRun: true,
            defaults: .init(
                vaultPath: "/nonexistent-pwtui-weak-test/v.pwtui", parameters: .moderate, theme: "default",
                clipboardTimeout: 45),
            themes: ["default"], home: "/home/user", calibrate: { options }, loadTheme: { _ in Theme.standard })
        let choices = try terminal.run(&screen)
        return (choices, screen.withPassword { $0.withUnsafeBytes { String(decoding: $0, as: UTF8.self) } })
    }

    @Test func aWeakPasswordNeedsASecondEnterOnTheSameText() throws {
        let terminal = GridTerminal(size: TerminalSize(rows: 20, columns: 90))
        terminal.press(.enter)  // location
        terminal.type("hunter2")
        terminal.press(.enter)  // refused once, with the warning
        terminal.type("x")
        terminal.press(.enter)  // another weak text: refused again
        terminal.press(.backspace, .enter)  // back to hunter2, but the last warning was for hunter2x
        terminal.press(.enter)  // the same text again: kept
        terminal.type("hunter2")
        terminal.press(.enter)  // confirmation
        terminal.press(.enter, .enter, .enter, .enter, .enter)  // unlock cost, theme, clipboard, agent, summary
        let (choices, password) = try run(terminal)
        #expect(choices != nil, "the wizard finishes with the weak password kept")
        #expect(password == "hunter2")
        let texts = terminal.frames.map(\.text)
        let warned = texts.filter { $0.contains(Self.warning) }
        #expect(warned.count == 3, "one warning per refused Enter: \(warned.count)")
        #expect(warned.allSatisfy { $0.contains("Choose a master password") && $0.contains("Enter again keeps it") })
        #expect(warned.allSatisfy { $0.contains("4 random words") }, "says what would be strong enough")
        #expect(texts.contains { $0.contains("Type the master password again") })
        for text in texts { #expect(!text.contains("hunter2"), "\(text)") }
    }

    @Test func aWeakPasswordCanBeReplacedAfterTheWarning() throws {
        let terminal = GridTerminal(size: TerminalSize(rows: 20, columns: 90))
        terminal.press(.enter)
        terminal.type("password")
        terminal.press(.enter)  // refused
        terminal.press(.control("u"))
        terminal.type("tiger lamp orbit velvet seven")
        terminal.press(.enter)  // strong: no warning, straight on
        terminal.type("tiger lamp orbit velvet seven")
        terminal.press(.enter, .enter, .enter, .enter, .enter, .enter)
        let (choices, password) = try run(terminal)
        #expect(choices != nil)
        #expect(password == "tiger lamp orbit velvet seven")
        #expect(terminal.frames.filter { $0.text.contains(Self.warning) }.count == 1)
    }

    @Test func escapeFromTheWarningGoesBackAsBefore() throws {
        let terminal = GridTerminal(size: TerminalSize(rows: 20, columns: 90))
        terminal.press(.enter)
        terminal.type("1234")
        terminal.press(.enter, .escape, .escape)  // refused; back to the location; cancelled
        let (choices, _) = try run(terminal)
        #expect(choices == nil)
        #expect(
            !terminal.frames.contains { $0.text.contains("Type the master password again") },
            "a weak password never got past its step")
    }
}
