import Foundation
import TUITestDoubles
import Testing
import TUI
import VaultCrypto
import VaultModel

/// Ctrl-C quits the wizard (Esc goes back one step): at once when nothing would be lost, after
/// a question when a password, a path or a choice was typed.
@Suite struct ConfigurationQuitTests {
    let options = KDFCalibration.options(floorSeconds: 0.065)
    let defaultPath = "/nonexistent-pwtui-quit-test/v.pwtui"

    func run(_ terminal: GridTerminal, firstRun: Bool = true) throws -> (ConfigurationScreen, ConfigurationChoices?) {
        let options = self.options
        var screen = try ConfigurationScreen(
            firstRun: firstRun,
            defaults: .init(vaultPath: defaultPath, parameters: .moderate, theme: "default", clipboardTimeout: 45),
            themes: ["default", "monochrome"], home: "/home/user", calibrate: { options },
            loadTheme: { _ in .monochrome })
        let choices = try terminal.run(&screen)
        return (screen, choices)
    }

    func step(_ frame: Canvas?) -> Int? {
        (frame?.text.firstMatch(of: /\(step (\d) of \d\)/)).flatMap { Int($0.1) }
    }

    @Test("Ctrl-C with nothing typed quits at once, on the first step and on a later one")
    func quitsAtOnceWhenNothingWouldBeLost() throws {
        let terminal = GridTerminal(size: TerminalSize(rows: 20, columns: 90))
        terminal.press(.control("c"))
        #expect(try run(terminal).1 == nil)
        #expect(!terminal.frames.contains { $0.text.contains("Quit") }, "no question")

        // configure, on its second step (the theme), nothing changed.
        let later = GridTerminal(size: TerminalSize(rows: 20, columns: 90))
        later.press(.enter, .control("c"))
        #expect(try run(later, firstRun: false).1 == nil)
        #expect(step(later.lastFrame) == 2)
        #expect(!later.frames.contains { $0.text.contains("Quit") })
    }

    @Test("Ctrl-C after typing a password asks; another key goes on where it was, y quits")
    func asksWhenAPasswordWasTyped() throws {
        let terminal = GridTerminal(size: TerminalSize(rows: 20, columns: 90))
        terminal.press(.enter)  // location: the default
        terminal.type("tiger lamp")
        terminal.press(.control("c"))  // asks
        terminal.type("n")  // goes on: still the password step, kept
        terminal.type(" orbit velvet seven")
        terminal.press(.enter)  // on to the confirmation
        terminal.press(.control("c"))  // asks again
        terminal.type("y")  // quits
        let (screen, choices) = try run(terminal)
        #expect(choices == nil, "y quits the wizard")
        let frames = terminal.frames
        let questions = frames.indices.filter { frames[$0].text.contains("Quit the setup? No vault is created.") }
        #expect(questions.count == 2, "asked twice")
        for index in questions {
            #expect(frames[index].text.contains("y quits, any other key goes on"))
            #expect(
                frames[index].text.components(separatedBy: "\n").last == ConfigurationScreen.helpBar(for: .password))
        }
        #expect(questions.map { step(frames[$0]) } == [2, 3], "Ctrl-C did not go back a step")
        #expect(step(frames.last) == 3)
        let password = screen.withPassword { $0.withUnsafeBytes { String(decoding: $0, as: UTF8.self) } }
        #expect(password == "tiger lamp orbit velvet seven", "the 'n' answered the question and was not typed")
    }

    @Test("a changed path asks before quitting; Ctrl-C again quits; Esc still goes back one step")
    func asksWhenThePathChanged() throws {
        let terminal = GridTerminal(size: TerminalSize(rows: 20, columns: 90))
        terminal.type("x")
        terminal.press(.control("c"), .control("c"))
        #expect(try run(terminal).1 == nil)
        #expect(terminal.frames.contains { $0.text.contains("Quit the setup?") })

        let back = GridTerminal(size: TerminalSize(rows: 20, columns: 90))
        back.press(.enter)
        back.type("tiger lamp orbit velvet seven")
        back.press(.enter, .escape, .escape, .escape)
        #expect(try run(back).1 == nil, "Esc on the first step cancels, as before")
        let steps = back.frames.compactMap(step)
        var distinct: [Int] = []
        for number in steps where distinct.last != number { distinct.append(number) }
        #expect(distinct == [1, 2, 3, 2, 1], "Esc goes back one step at a time")
        #expect(!back.frames.contains { $0.text.contains("Quit") }, "Esc never asks")
    }

    @Test("a configure choice changed (the theme) asks before quitting")
    func asksWhenAChoiceChanged() throws {
        let terminal = GridTerminal(size: TerminalSize(rows: 20, columns: 90))
        terminal.press(.enter, .down, .control("c"))
        terminal.press(.escape)  // any other key: goes on (Esc answers, not back)
        terminal.press(.control("c"))
        terminal.type("Y")
        #expect(try run(terminal, firstRun: false).1 == nil)
        let frames = terminal.frames
        let questions = frames.indices.filter { frames[$0].text.contains("Quit? Nothing is changed.") }
        #expect(questions.count == 2)
        #expect(questions.map { step(frames[$0]) } == [2, 2], "the Esc that answered did not go back")
    }
}
