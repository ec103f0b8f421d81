import Foundation
import PwtuiTestSupport
import TUITestDoubles
import Testing
import TUI
import VaultModel

@Suite struct PickerFlowTests {
    @Test func unlockThenListRankedWithSectionsAndShowAll() throws {
        let sample = try SampleVault()
        let terminal = GridTerminal(size: TerminalSize(rows: 16, columns: 90))
        terminal.type(SampleVault.password)
        terminal.press(.enter, .tab, .tab, .down, .enter)
        guard case .chosen(_, let credential) = try sample.flow(terminal, request: "https://github.com/login").run()
        else {
            Issue.record("nothing chosen")
            return
        }
        #expect(credential.title == "GitHub API", "the second match")
        // Frames: password screen (empty, then one per typed character), busy, list, show-all, list again, moved.
        let listFrames = terminal.frames.filter { $0.text.contains("Matches for") }
        try assertSnapshot(listFrames.first, named: "list-matches")
        try assertSnapshot(listFrames.dropFirst().first, named: "list-show-all")
        #expect(listFrames[2].text == listFrames[0].text, "Tab again hides the other credentials")
    }

    @Test func aPreviewListsBeforeUnlockingAndAnAgentAnswersTheChoice() throws {
        let sample = try SampleVault()
        let terminal = GridTerminal(size: TerminalSize(rows: 16, columns: 90))
        terminal.press(.down, .enter)
        var asked: [UUID] = []
        let outcome = try sample.flow(
            terminal, request: "https://github.com/login", preview: try sample.ranked(for: "https://github.com/login"),
            answerWithoutUnlocking: { id in
                asked.append(id); return id
            }
        ).run()
        guard case .answeredWithoutUnlocking(let id) = outcome else {
            Issue.record("the agent's answer must end the flow: \(outcome)")
            return
        }
        #expect(asked == [id])
        #expect(sample.vault.contents.credential(withID: id)?.title == "GitHub API", "the second match")
        #expect(!terminal.frames.contains { $0.text.contains("Master password") }, "never asked")
    }

    @Test func aChoiceFromThePreviewAsksForThePasswordWhenNobodyElseCanAnswer() throws {
        let sample = try SampleVault()
        let terminal = GridTerminal(size: TerminalSize(rows: 16, columns: 90))
        terminal.press(.down, .enter, .escape, .up, .enter)  // Esc on the password screen: back to the list
        terminal.type(SampleVault.password)
        terminal.press(.enter)
        let outcome = try sample.flow(
            terminal, request: "https://github.com/login", preview: try sample.ranked(for: "https://github.com/login"),
            answerWithoutUnlocking: { _ in nil }
        ).run()
        guard case .chosen(_, let credential) = outcome else {
            Issue.record("unlocked and chosen expected: \(outcome)")
            return
        }
        #expect(credential.title == "GitHub", "the choice made after going back")
        let texts = terminal.frames.map(\.text)
        #expect(texts.first?.contains("Matches for https://github.com/login") == true, "the list is the first frame")
        #expect(texts.contains { $0.contains("To use GitHub API (bot)") }, "the password screen names the first choice")
        #expect(texts.contains { $0.contains("To use GitHub (alice)") }, "and then the second")
    }

    @Test func aPreviewedCredentialGoneFromTheVaultLeadsToTheVaultsOwnList() throws {
        let sample = try SampleVault()
        let stale = try sample.ranked(for: "gitlab.com")
        let gitlab = try #require(sample.vault.contents.credentials.first { $0.title == "GitLab" })
        try sample.vault.remove(gitlab.id)
        try sample.vault.save()
        let terminal = GridTerminal(size: TerminalSize(rows: 16, columns: 90))
        terminal.press(.enter)
        terminal.type(SampleVault.password)
        terminal.press(.enter, .escape)
        let outcome = try sample.flow(terminal, request: "gitlab.com", preview: stale).run()
        guard case .cancelled = outcome else {
            Issue.record("the vault's own list, then Esc: \(outcome)")
            return
        }
        #expect(
            terminal.frames.last?.text.contains("Matches for gitlab.com (0)") == true,
            "\(terminal.frames.last?.text ?? "")")
    }

    @Test func passwordScreenShowsDotsAndBusyStateNeverThePassword() throws {
        let sample = try SampleVault()
        let terminal = GridTerminal(size: TerminalSize(rows: 12, columns: 60))
        terminal.type("wrong")
        terminal.press(.enter)
        terminal.type(SampleVault.password)
        terminal.press(.enter, .escape)
        guard case .cancelled = try sample.flow(terminal, request: "github.com").run() else {
            Issue.record("Esc on the list must cancel")
            return
        }
        let texts = terminal.frames.map(\.text)
        #expect(texts.contains { $0.contains("Master password: •••••") && !$0.contains("••••••") })
        #expect(texts.contains { $0.contains("Unlocking…") })
        #expect(texts.contains { $0.contains("Wrong master password — 2 tries left") })
        for text in texts {
            #expect(
                !text.contains("wrong") && !text.contains(SampleVault.password),
                "a typed password is on screen:\n\(text)")
            for secret in SampleVault.secrets { #expect(!text.contains(secret), "a secret is on screen:\n\(text)") }
        }
    }

    @Test func aResizeRedrawsAtTheNewSize() throws {
        let sample = try SampleVault()
        let terminal = GridTerminal(size: TerminalSize(rows: 16, columns: 90))
        terminal.type(SampleVault.password)
        terminal.press(.enter)
        terminal.enqueue(.resize(TerminalSize(rows: 5, columns: 30)), .resize(TerminalSize(rows: 12, columns: 50)))
        terminal.press(.escape)
        _ = try sample.flow(terminal, request: "github.com").run()
        let sizes = terminal.frames.suffix(3).map(\.size)
        #expect(
            sizes == [
                TerminalSize(rows: 16, columns: 90), TerminalSize(rows: 5, columns: 30),
                TerminalSize(rows: 12, columns: 50),
            ])
        #expect(terminal.frames.suffix(2).first?.text.contains("Terminal too small") == true)
        try assertSnapshot(terminal.frames.last, named: "list-resized-50x12")
    }

    @Test func threeWrongPasswordsEndTheFlow() throws {
        let sample = try SampleVault()
        let terminal = GridTerminal()
        for attempt in 1 ... 3 {
            terminal.type("nope\(attempt)")
            terminal.press(.enter)
        }
        guard case .wrongPassword(let attempts) = try sample.flow(terminal, request: nil).run() else {
            Issue.record("three wrong passwords must end the flow")
            return
        }
        #expect(attempts == 3)
    }

    @Test func escapeOnThePasswordScreenCancels() throws {
        let sample = try SampleVault()
        let terminal = GridTerminal()
        terminal.type("half")
        terminal.press(.escape)
        guard case .cancelled = try sample.flow(terminal, request: nil).run() else {
            Issue.record("Esc must cancel")
            return
        }
    }
}

@Suite struct CredentialListScreenTests {
    func screen(_ request: String?) throws -> (CredentialListScreen, SampleVault) {
        let sample = try SampleVault()
        return (CredentialListScreen(ranked: try sample.ranked(for: request), requestLabel: request), sample)
    }

    /// What the run loop draws of `screen` (the too-small notice included).
    func frame(_ screen: CredentialListScreen, rows: Int = 14, columns: Int = 90) -> Canvas {
        screen.frame(at: TerminalSize(rows: rows, columns: columns))
    }

    @Test func typingFiltersAndEditingKeysWork() throws {
        var (list, _) = try screen(nil)
        #expect(list.visibleEntries.count == 5)
        for scalar in "git".unicodeScalars { _ = list.handle(.key(.text(scalar))) }
        #expect(Set(list.visibleEntries.map(\.credential.title)) == ["GitHub", "GitHub API", "GitLab"])
        for scalar in " lab".unicodeScalars { _ = list.handle(.key(.text(scalar))) }
        #expect(list.visibleEntries.map(\.credential.title) == ["GitLab"])
        _ = list.handle(.key(.control("w")))
        #expect(list.query == "git ")
        _ = list.handle(.key(.backspace))
        #expect(list.query == "git")
        _ = list.handle(.key(.control("u")))
        #expect(list.query == "" && list.visibleEntries.count == 5)
        for scalar in "zzz".unicodeScalars { _ = list.handle(.key(.text(scalar))) }
        try assertSnapshot(frame(list), named: "list-no-match")
    }

    @Test func filteringKeepsTheSections() throws {
        var (list, _) = try screen("https://github.com/login")
        _ = list.handle(.key(.tab))
        for scalar in "alice".unicodeScalars { _ = list.handle(.key(.text(scalar))) }
        let text = frame(list).text
        #expect(text.contains("Matches for https://github.com/login (1)"))
        #expect(text.contains("All other credentials (1)"))
        #expect(list.visibleEntries.map(\.credential.title) == ["GitHub", "GitLab"])
    }

    @Test func emptyStateSaysWhatToDo() throws {
        var (list, _) = try screen("unknown.example.net")
        #expect(frame(list).text.contains("No credentials for unknown.example.net — Tab shows all 5"))
        #expect(list.handle(.key(.enter)) == .stay, "nothing to choose")
    }

    @Test func navigationKeysMoveAndStopAtTheEnds() throws {
        var (list, _) = try screen(nil)
        _ = list.handle(.key(.up))
        #expect(list.selection == 0)
        _ = list.handle(.key(.control("n")))
        _ = list.handle(.key(.down))
        #expect(list.selection == 2)
        _ = list.handle(.key(.control("p")))
        #expect(list.selection == 1)
        _ = list.handle(.key(.end))
        #expect(list.selection == 4)
        _ = list.handle(.key(.pageDown))
        #expect(list.selection == 4)
        _ = list.handle(.key(.pageUp))
        #expect(list.selection == 0)
        _ = list.handle(.key(.end))
        guard case .finish(.use(let id)) = list.handle(.key(.enter)) else {
            Issue.record("Enter chooses")
            return
        }
        #expect(id == list.visibleEntries[4].credential.id)
        #expect(list.handle(.key(.control("c"))) == .cancel)
    }

    @Test func tinyTerminalsSaySoAndResizeRedraws() throws {
        let (list, _) = try screen("github.com")
        let small = frame(list, rows: 4, columns: 20)
        #expect(small.text.contains("Terminal too small"))
        let big = frame(list, rows: 10, columns: 60)
        #expect(big.text.contains("Matches for github.com"))
        #expect(big.size == TerminalSize(rows: 10, columns: 60))
    }

    @Test func longListsScrollToKeepTheSelectionVisible() throws {
        var (list, _) = try screen(nil)
        _ = list.handle(.key(.end))
        let canvas = frame(list, rows: 7, columns: 60)
        let selectedRows = canvas.rows(with: .selected)
        #expect(selectedRows.count == 1)
        #expect(canvas.text.contains("▸"))
    }
}

@Suite struct CanvasAndThemeTests {
    @Test func doubleWidthTextTakesTwoColumnsAndIsNeverSplit() {
        var canvas = Canvas(size: TerminalSize(rows: 3, columns: 10))
        let end = canvas.put("日本語", row: 0, column: 0)
        #expect(end == 6)
        canvas.put("日本語です", row: 1, column: 3)
        #expect(canvas.text.split(separator: "\n")[1] == "   日本語…")
        var narrow = Canvas(size: TerminalSize(rows: 2, columns: 10))
        narrow.put("abcdefghijklmno", row: 0, column: 0)
        #expect(narrow.text.split(separator: "\n").first == "abcdefghi…")
        narrow.put("e\u{301}x", row: 1, column: 0)
        #expect(narrow.text.hasSuffix("éx"))
    }

    @Test func bottomRightCellIsNeverWritten() {
        var canvas = Canvas(size: TerminalSize(rows: 1, columns: 4))
        canvas.put("abcd", row: 0, column: 0)
        #expect(canvas.cells[0][3].character == " ")
    }

    @Test func themeFilesParseAndErrorsNameFileAndLine() throws {
        let themes = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Resources/themes").path
        for name in ["default", "high-contrast", "monochrome"] {
            var warnings: [String] = []
            let theme = Theme.load(named: name, from: [themes]) { warnings.append($0) }
            #expect(warnings.isEmpty, "\(name): \(warnings)")
            #expect(theme.name == name)
        }
        #expect(Theme.load(named: "default", from: [themes]) { _ in } == Theme.standard.withName("default"))
        #expect(
            throws: Theme.ParseError(
                file: "t.theme", line: 2,
                problem:
                    "unknown role 'selekted' (known: \(StyleRole.allCases.map(\.rawValue).joined(separator: ", ")))")
        ) {
            _ = try Theme.parse("# ok\nselekted = red blue\n", name: "t", file: "t.theme")
        }
        var warnings: [String] = []
        let directory = NSTemporaryDirectory() + "pwtui-theme-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try "normal = red\n".write(toFile: directory + "/broken.theme", atomically: true, encoding: .utf8)
        let fallback = Theme.load(named: "broken", from: [directory]) { warnings.append($0) }
        #expect(fallback == .standard)
        #expect(
            warnings == [
                "\(directory)/broken.theme:1: expected two colours (default, black, red, green, yellow, blue, magenta, cyan, white); using the default theme"
            ])
    }
}

extension Theme {
    func withName(_ name: String) -> Theme {
        var copy = self
        copy.name = name
        return copy
    }
}

/// Typed filters through the real screen: the cursor lands on the best match, and Enter takes it.
@Suite struct FilterCursorTests {
    @Test("typing 'exa' puts the cursor on Example, though GitHub's section is above it, and Enter chooses it")
    func cursorOnTheBestFilterMatch() throws {
        let sample = try SampleVault()
        var screen = CredentialListScreen(
            ranked: try sample.ranked(for: "https://github.com/login"), requestLabel: "https://github.com/login")
        #expect(screen.visibleEntries.allSatisfy { $0.match != nil }, "show-all is off")
        // A typed filter searches every credential, keeping the sections.
        for scalar in "exa".unicodeScalars { _ = screen.handle(.key(.text(scalar))) }
        let sections = screen.visibleEntries.map { $0.match == nil ? 1 : 0 }
        #expect(sections == sections.sorted(), "the matches' section still comes first")
        _ = screen.handle(.key(.control("u")))
        for scalar in "l".unicodeScalars { _ = screen.handle(.key(.text(scalar))) }
        #expect(Set(screen.visibleEntries.map { $0.match == nil }) == [false, true], "both sections are searched")
        _ = screen.handle(.key(.control("u")))
        for scalar in "exa".unicodeScalars { _ = screen.handle(.key(.text(scalar))) }
        #expect(screen.selected?.credential.title == "Example")
        let example = try #require(sample.vault.contents.credentials.first { $0.title == "Example" })
        #expect(screen.handle(.key(.enter)) == .finish(.use(example.id)))
    }
}
