import Foundation
import ServiceMatching
import TUITestDoubles
import Testing
import TUI
import VaultCrypto
import VaultModel

/// Secretless credentials, as the identity store gives them: the list needs nothing else.
func identities(_ count: Int) throws -> [Credential] {
    try (0 ..< count).map { index in
        try IdentityStore.Identity(
            id: UUID(), title: String(format: "Entry %02d", index), username: "user\(index)",
            services: ["site\(index).example"], rank: 0
        ).secretlessCredential()
    }
}

func ranked(_ credentials: [Credential]) -> [RankedCredential] {
    CredentialRanking.rank(credentials, for: [], context: RankingContext(suffixes: NoPublicSuffixList()))
}

/// A screen that only records what reaches it: Enter finishes, Esc cancels.
struct RecordingScreen: Screen {
    var minimumSize: TerminalSize { TerminalSize(rows: 10, columns: 40) }
    var received: [TerminalEvent] = []

    mutating func handle(_ event: TerminalEvent, context: ScreenContext) -> Transition<Int> {
        received.append(event)
        switch event {
        case .key(.enter): return .finish(received.count)
        case .key(.escape): return .cancel
        default: return .stay
        }
    }

    func render(into canvas: inout Canvas) {
        canvas.put("recorded \(received.count)", row: 0, column: 0)
    }
}

/// The one run loop: "terminal too small" for every screen, and the list's page from its layout.
@Suite struct RunLoopTests {
    let normal = TerminalSize(rows: 10, columns: 40)

    @Test func belowTheMinimumOnlyResizeEscAndControlCReachTheScreen() throws {
        let tiny = TerminalSize(rows: 9, columns: 40)
        let terminal = GridTerminal(size: tiny)
        terminal.press(.enter, .tab, .down, .control("u"), .backspace)
        terminal.type("x")
        terminal.press(.control("c"))
        terminal.enqueue(.resize(normal))
        terminal.press(.enter)
        var screen = RecordingScreen()
        #expect(try terminal.run(&screen) == 3)
        #expect(screen.received == [.key(.control("c")), .resize(normal), .key(.enter)])
        #expect(terminal.frames.first?.text.hasPrefix("Terminal too small\nneed 40×10, have 40×9") == true)
        #expect(terminal.frames.last?.text.hasPrefix("recorded 2") == true, "the last frame drawn, before Enter")
    }

    @Test func aShrinkReachesTheScreenAndTheKeysAfterItMeetTheNotice() throws {
        // The resize itself acts (the screen may lay out for the new size); the Enter after it
        // was typed at the notice, so it is dropped.
        let terminal = GridTerminal(size: normal)
        terminal.enqueue(.resize(TerminalSize(rows: 3, columns: 10)))
        terminal.press(.enter)
        terminal.press(.escape)
        var screen = RecordingScreen()
        #expect(try terminal.run(&screen) == nil)
        #expect(screen.received == [.resize(TerminalSize(rows: 3, columns: 10)), .key(.escape)])
    }

    /// Every real screen, opened one column too narrow: Enter, typing, Tab and the arrows do
    /// nothing (the frame once it fits is a fresh screen's), and Esc cancels.
    @Test(arguments: ["list", "password", "configuration"])
    func everyScreenIgnoresKeysWhileTooSmall(_ name: String) throws {
        var unlockTries = 0
        func check<S: Screen>(_ make: () throws -> S) throws {
            var screen = try make()
            let fits = screen.minimumSize
            let terminal = GridTerminal(size: TerminalSize(rows: fits.rows, columns: fits.columns - 1))
            terminal.press(.enter, .tab, .down, .up, .backspace)
            terminal.type("typed")
            terminal.press(.enter)
            terminal.enqueue(.resize(fits))
            terminal.press(.escape)
            #expect(try terminal.run(&screen) == nil, "\(name): Esc cancels")
            #expect(terminal.frames.dropLast().allSatisfy { $0.text.hasPrefix("Terminal too small") }, "\(name)")
            #expect(terminal.frames.last == (try make()).frame(at: fits), "\(name): no key acted unseen")
        }
        switch name {
        case "list":
            let list = ranked(try identities(3))
            try check { CredentialListScreen(ranked: list, requestLabel: nil) }
        case "password":
            try check {
                try MasterPasswordScreen<Int>(vaultPath: "/v.pwtui") { _ in
                    unlockTries += 1
                    throw VaultError.wrongPassword(path: "/v.pwtui")
                }
            }
            #expect(unlockTries == 0)
        default:
            try check {
                try ConfigurationScreen(
                    firstRun: true,
                    defaults: .init(
                        vaultPath: "/nonexistent-pwtui-run-loop/v.pwtui", parameters: .moderate,
                        theme: "default", clipboardTimeout: 45),
                    themes: ["default", "monochrome"], home: "/home/user", calibrate: { [] },
                    loadTheme: { _ in .monochrome })
            }
        }
    }

    /// PgDn and PgUp move the selection by as many lines as the list shows at that size, counted
    /// in the frames drawn (the flow once paged by one line less than the screen drew).
    @Test(arguments: [8, 12, 24, 40])
    func aPageIsWhatTheListShows(rows: Int) throws {
        let list = ranked(try identities(120))
        let order = CredentialListScreen(ranked: list, requestLabel: nil).visibleEntries.map(\.credential.displayTitle)
        let terminal = GridTerminal(size: TerminalSize(rows: rows, columns: 80))
        terminal.press(.pageDown, .pageDown, .pageUp, .escape)
        var screen = CredentialListScreen(ranked: list, requestLabel: nil)
        #expect(try terminal.run(&screen) == nil)

        let lines = terminal.frames[0].text.components(separatedBy: "\n")
        let shown = lines[3 ..< rows - 1].filter { !$0.isEmpty }.count  // between the filter and the help bar
        func selected(_ frame: Canvas) throws -> Int {
            let row = try #require(frame.rows(with: .selected).first)
            let line = frame.text.components(separatedBy: "\n")[row]
            return try #require(order.firstIndex { line.hasPrefix("▸ \($0) ") })
        }
        #expect(try terminal.frames.map(selected) == [0, shown, 2 * shown, shown], "\(rows) rows show \(shown) lines")
    }

    @Test func thePickerNeedsNoVault() throws {
        // What unlocking opens is the caller's: here a plain array, and a password compared.
        let credentials = try identities(4)
        let terminal = GridTerminal(size: TerminalSize(rows: 16, columns: 80))
        terminal.type("no")
        terminal.press(.enter)
        terminal.type("open")
        terminal.press(.enter, .down, .enter)
        var tries = 0
        let flow = PickerFlow<[Credential], Never>(
            terminal: terminal, vaultPath: "/v", requestLabel: nil,
            unlock: { password in
                tries += 1
                guard password.withUnsafeBytes({ $0.elementsEqual("open".utf8) }) else {
                    throw VaultError.wrongPassword(path: "/v")
                }
                return credentials
            },
            rank: { ranked($0) }, credential: { unlocked, id in unlocked.first { $0.id == id } })
        guard case .chosen(let unlocked, let credential) = try flow.run() else {
            Issue.record("a choice after the second try")
            return
        }
        #expect(tries == 2)
        #expect(unlocked.count == 4)
        #expect(credential.title == ranked(credentials)[1].credential.title)
        #expect(terminal.frames.contains { $0.text.contains("Wrong master password — 2 tries left") })
    }
}
