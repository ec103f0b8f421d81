import Foundation
import TUITestDoubles
import Testing
import TUI
import VaultCrypto
import VaultModel

/// The configuration screen's keys and help bar come from one table, like the other screens'.
@Suite struct ConfigurationHelpBarTests {
    @Test func theHelpBarIsWrittenFromTheBindings() {
        let shown = ConfigurationScreen.bindings.filter(\.inHelpBar)
        #expect(shown.map(\.label) == ["Enter", "↑↓", "Esc", "^C"])
        #expect(ConfigurationScreen.helpBar(for: .theme) == KeyBinding.helpBar(ConfigurationScreen.bindings))
        #expect(ConfigurationScreen.helpBar(for: .theme) == "Enter next  ↑↓ choose  Esc back  ^C quit")
        #expect(ConfigurationScreen.helpBar(for: .unlockCost) == "Enter next  ↑↓ choose  Esc back  ^C quit")
        for step in [ConfigurationScreen.Step.location, .password, .confirmation, .clipboard, .summary] {
            #expect(
                ConfigurationScreen.helpBar(for: step) == "Enter next  Esc back  ^C quit", "\(step): nothing to choose")
        }
    }

    @Test func everyFrameOfTheWizardEndsWithItsStepsHelpBar() throws {
        let terminal = GridTerminal(size: TerminalSize(rows: 20, columns: 90))
        terminal.press(.enter)
        terminal.type("tiger lamp orbit velvet seven")
        terminal.press(.enter)
        terminal.type("tiger lamp orbit velvet seven")
        terminal.press(.enter, .down, .enter, .down, .enter, .enter, .enter, .enter)
        let options = KDFCalibration.options(floorSeconds: 0.065)
        var screen = try ConfigurationScreen(
            firstRun: true,
            defaults: .init(
                vaultPath: "/nonexistent-pwtui-help/v.pwtui", parameters: .moderate, theme: "default",
                clipboardTimeout: 45),
            themes: ["default", "monochrome"], home: "/home/user", calibrate: { options },
            loadTheme: { _ in .monochrome })
        #expect(try terminal.run(&screen) != nil)
        let steps: [ConfigurationScreen.Step] = [
            .location, .password, .confirmation, .unlockCost, .theme, .clipboard, .agent, .summary,
        ]
        var seen = Set<Int>()
        for frame in terminal.frames {
            let text = frame.text
            let match = try #require(text.firstMatch(of: /step (\d) of 8/))
            let number = try #require(Int(match.1))
            seen.insert(number)
            let help = text.components(separatedBy: "\n").last ?? ""
            #expect(help == ConfigurationScreen.helpBar(for: steps[number - 1]), "step \(number): \(help)")
        }
        #expect(seen == Set(1 ... 8))
    }

    /// Each key the table binds acts as the help bar says, on the step where it is offered.
    @Test func theBoundKeysActAsTheHelpBarSays() throws {
        let terminal = GridTerminal(size: TerminalSize(rows: 20, columns: 90))
        // Configure starts at the unlock cost: Enter next; on the theme, ↑↓ choose (previewed),
        // Tab, →, ← and ^N too; Enter on to the clipboard, Esc back to the theme (previewed
        // again), to the cost, and on the first step Esc cancels.
        terminal.press(.enter, .down, .tab, .right, .up, .left, .control("n"), .enter, .escape, .escape, .escape)
        let options = KDFCalibration.options(floorSeconds: 0.065)
        var previewed: [String] = []
        var screen = try ConfigurationScreen(
            firstRun: false,
            defaults: .init(vaultPath: "/unused", parameters: .moderate, theme: "default", clipboardTimeout: 45),
            themes: ["default", "high-contrast", "monochrome"], home: "/home/user", calibrate: { options },
            loadTheme: {
                previewed.append($0); return .standard
            })
        #expect(try terminal.run(&screen) == nil, "Esc on the first step cancels")
        #expect(
            previewed == [
                "high-contrast", "monochrome", "default", "monochrome", "high-contrast", "monochrome", "monochrome",
            ],
            "down, Tab, right, up, left, ^N, then Esc back into the theme step")
    }
}
