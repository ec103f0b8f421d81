import Foundation
import PwtuiTestSupport
import TUITestDoubles
import Testing
import TUI
import VaultModel

/// Below a screen's minimum size the person sees only "Terminal too small": no key but Esc and
/// Ctrl-C may act on what is hidden (issue 9, fix 4).
@Suite struct TooSmallTests {
    let tiny = TerminalSize(rows: 4, columns: 20)
    let normal = TerminalSize(rows: 16, columns: 90)

    @Test func theListIgnoresEnterTypingAndMovesWhileTooSmall() throws {
        let sample = try SampleVault()
        let terminal = GridTerminal(size: normal)
        terminal.enqueue(.resize(tiny))
        terminal.press(.down, .enter, .tab, .control("u"))
        terminal.type("gitlab")
        terminal.press(.enter)
        terminal.enqueue(.resize(normal))
        terminal.press(.escape)
        var asked: [UUID] = []
        let outcome = try sample.flow(
            terminal, request: "https://github.com/login", preview: try sample.ranked(for: "https://github.com/login"),
            answerWithoutUnlocking: { id in
                asked.append(id); return id
            }
        ).run()
        guard case .cancelled = outcome else {
            Issue.record("nothing may be chosen unseen; Esc cancels: \(outcome)")
            return
        }
        #expect(asked.isEmpty)
        #expect(terminal.frames.contains { $0.text.contains("Terminal too small") })
        let last = try #require(terminal.frames.last).text
        #expect(last.contains("Filter: \n") || !last.contains("gitlab"), "the typing was dropped: \(last)")
        #expect(last.contains("▸ GitHub "), "the selection did not move: \(last)")
    }

    @Test func escapeAndControlCStillCancelWhileTooSmall() throws {
        for key in [Key.escape, .control("c")] {
            let sample = try SampleVault()
            let terminal = GridTerminal(size: tiny)
            terminal.press(key)
            let outcome = try sample.flow(
                terminal, request: "github.com", preview: try sample.ranked(for: "github.com")
            ).run()
            guard case .cancelled = outcome else {
                Issue.record("\(key) cancels: \(outcome)")
                continue
            }
        }
    }

    @Test func thePasswordScreenTakesNoKeystrokesWhileTooSmall() throws {
        let sample = try SampleVault()
        let terminal = GridTerminal(size: tiny)
        terminal.type("wrong")
        terminal.press(.enter)
        terminal.enqueue(.resize(normal))
        terminal.type(SampleVault.password)
        terminal.press(.enter, .escape)
        let outcome = try sample.flow(terminal, request: "github.com").run()
        guard case .cancelled = outcome else {
            Issue.record("the password typed once the screen showed unlocks: \(outcome)")
            return
        }
        #expect(!terminal.frames.contains { $0.text.contains("Wrong master password") }, "nothing was submitted unseen")
        #expect(terminal.frames.contains { $0.text.contains("Matches for github.com") })
    }

    @Test func theConfigurationScreenDoesNotAdvanceWhileTooSmall() throws {
        let terminal = GridTerminal(size: tiny)
        terminal.press(.enter, .enter, .text("x"))
        terminal.enqueue(.resize(TerminalSize(rows: 20, columns: 90)))
        terminal.press(.escape)
        var screen = try ConfigurationScreen(
            firstRun: true,
            defaults: .init(
                vaultPath: "/nonexistent-pwtui-small/v.pwtui", parameters: .moderate, theme: "default",
                clipboardTimeout: 45),
            themes: ["default"], home: "/home/user", calibrate: { [] }, loadTheme: { _ in .standard })
        #expect(try terminal.run(&screen) == nil, "Esc on the first step cancels: no step was taken while too small")
        #expect(
            terminal.frames.last?.text.contains("/nonexistent-pwtui-small/v.pwtui\n") == true,
            "\(terminal.frames.last?.text ?? "")")
    }
}
