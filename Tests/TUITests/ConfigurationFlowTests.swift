import Foundation
import Passwords
import TUITestDoubles
import Testing
@testable import TUI
import VaultCrypto
import VaultModel

@Suite struct ConfigurationFlowTests {
    let options = KDFCalibration.options(floorSeconds: 0.065)

    /// The wizard's screen, and its run on `terminal` (the choices, nil when cancelled).
    func wizard(_ terminal: GridTerminal, defaultPath: String, firstRun: Bool = true) throws -> (
        ConfigurationScreen, Wizard
    ) {
        let options = self.options
        let screen = try ConfigurationScreen(
            firstRun: firstRun,
            defaults: .init(vaultPath: defaultPath, parameters: .moderate, theme: "default", clipboardTimeout: 45),
            themes: ["default", "high-contrast", "monochrome"], home: "/home/user", calibrate: { options },
            loadTheme: { $0 == "monochrome" ? .monochrome : Theme.standard })
        return (screen, Wizard(terminal: terminal, screen: screen))
    }

    struct Wizard {
        let terminal: GridTerminal
        var screen: ConfigurationScreen

        mutating func run() throws -> ConfigurationScreen.Choices? { try terminal.run(&screen) }
    }

    @Test func firstRunWalksEveryStepAndKeepsThePasswordOffScreen() throws {
        let path = "/nonexistent-pwtui-wizard-test/v.pwtui"  // fixed: it appears in the snapshot
        let terminal = GridTerminal(size: TerminalSize(rows: 20, columns: 90))
        terminal.press(.enter)  // location: the default
        terminal.type("hunter2")  // weak
        terminal.press(.control("u"))
        terminal.type("tiger lamp orbit velvet seven")
        terminal.press(.enter)
        terminal.type("tiger lamp orbit velvet sevem")  // mismatch: back to the password
        terminal.press(.enter)
        terminal.type("tiger lamp orbit velvet seven")
        terminal.press(.enter)
        terminal.type("tiger lamp orbit velvet seven")
        terminal.press(.enter)
        terminal.press(.down, .enter)  // unlock cost: about 1 s
        terminal.press(.down, .down, .enter)  // theme: monochrome, previewed
        terminal.press(.control("u"))
        terminal.type("30")
        terminal.press(.enter)  // clipboard
        terminal.press(.up, .enter)  // agent: no, only pwtui unlock (the last of three)
        terminal.press(.enter)  // summary
        var (screen, flow) = try wizard(terminal, defaultPath: path)
        let choices = try #require(try flow.run())
        #expect(choices.vaultPath == path)
        #expect(
            choices.keepsAgentUnlocked == false,
            "the wizard asks whether unlocking keeps the agent unlocked (issue 26, 9)")
        #expect(choices.parameters == options[1].parameters)
        #expect(choices.theme == "monochrome")
        #expect(choices.clipboardTimeout == 30)
        #expect(terminal.theme == .monochrome, "the theme step previews on the terminal")
        let password = screen.withPassword { $0.withUnsafeBytes { String(decoding: $0, as: UTF8.self) } }
        #expect(password == "tiger lamp orbit velvet seven")

        let texts = terminal.frames.map(\.text)
        #expect(texts.contains { $0.contains("Strength: weak") })
        #expect(texts.contains { $0.contains("Strength: strong") })
        #expect(texts.contains { $0.contains("The two entries differ") })
        #expect(texts.contains { $0.contains("Measuring how fast this machine derives keys") })
        for text in texts {
            #expect(!text.contains("hunter2") && !text.contains("tiger") && !text.contains("velvet"), "\(text)")
        }
        try assertSnapshot(terminal.frames.last, named: "wizard-summary")
    }

    @Test(
        "the summary wraps the vault's note instead of cutting it at the edge, where it names the vault later commands open (issue 38)"
    )
    func summaryWrapsTheVaultNote() throws {
        let opened = "/home/user/.local/share/pwtui/a-directory-with-a-long-name/another-one/vault.pwtui"
        let terminal = GridTerminal(size: TerminalSize(rows: 24, columns: 100))
        terminal.press(.enter)  // location: the default
        terminal.type("tiger lamp orbit velvet seven")
        terminal.press(.enter)
        terminal.type("tiger lamp orbit velvet seven")
        terminal.press(.enter)
        terminal.press(.enter, .enter, .enter, .enter)  // unlock cost, theme, clipboard, agent
        var (_, flow) = try wizard(terminal, defaultPath: "/tmp/pwtui-none/v.pwtui")
        flow.screen.settingsVaultNote = { _ in
            "(named by PWTUI_VAULT: not written to the settings; later commands open \(opened))"
        }
        _ = try? flow.run()  // the script ends on the summary, before Enter creates anything
        let summary = try #require(terminal.frames.last { $0.text.contains("Summary") }).text
        let joined = summary.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined()
        #expect(joined.contains(opened), "\(summary)")
        #expect(summary.split(separator: "\n").allSatisfy { $0.count <= 100 })
    }

    @Test("wrapping breaks at spaces and cuts only a word longer than a line")
    func wrapping() {
        #expect(ConfigurationScreen.wrapped("one two three", width: 7) == ["one two", "three"])
        #expect(ConfigurationScreen.wrapped("a /very/long/path", width: 6) == ["a", "/very/", "long/p", "ath"])
        #expect(ConfigurationScreen.wrapped("", width: 5) == [""])
    }

    @Test func escapeGoesBackAndCancelsOnTheFirstStep() throws {
        let terminal = GridTerminal(size: TerminalSize(rows: 20, columns: 90))
        terminal.press(.enter, .escape, .escape)
        var (_, flow) = try wizard(terminal, defaultPath: NSTemporaryDirectory() + "pwtui-none/v.pwtui")
        #expect(try flow.run() == nil)
        #expect(terminal.frames.filter { $0.text.contains("(step 1 of 8)") }.count == 2)
    }

    @Test func anExistingFileOrARelativePathIsRefused() throws {
        let existing = NSTemporaryDirectory() + "pwtui-exists-" + UUID().uuidString
        try Data().write(to: URL(fileURLWithPath: existing))
        let terminal = GridTerminal(size: TerminalSize(rows: 20, columns: 90))
        terminal.press(.enter, .control("u"))
        terminal.type("relative/v.pwtui")
        terminal.press(.enter, .escape)
        var (_, flow) = try wizard(terminal, defaultPath: existing)
        #expect(try flow.run() == nil)
        let texts = terminal.frames.map(\.text)
        #expect(texts.contains { $0.contains("A file already exists there; choose another place") })
        #expect(texts.contains { $0.contains("Give an absolute path") })
    }

    @Test(
        "configure's agent step offers the desktop keyring: the agent unlocked and serving the Secret Service (issue 40)"
    )
    func agentStepOffersTheKeyring() throws {
        let terminal = GridTerminal(size: TerminalSize(rows: 20, columns: 90))
        terminal.press(.enter, .enter, .enter)  // unlock cost, theme, clipboard: as they are
        terminal.press(.down, .enter)  // agent: yes, and be the desktop keyring
        terminal.press(.enter)  // summary
        var (_, flow) = try wizard(terminal, defaultPath: "/unused", firstRun: false)
        let choices = try #require(try flow.run())
        #expect(choices.keepsAgentUnlocked && choices.servesKeyring)
        let step = try #require(terminal.frames.last { $0.text.contains("keep the vault unlocked?") }).text
        #expect(step.contains("▸ yes, and be the desktop keyring too (secret_service = true)"), "\(step)")
        let summary = try #require(terminal.frames.last).text
        #expect(summary.contains("Desktop keyring:   the agent serves the Secret Service"), "\(summary)")
    }

    @Test func reconfigureStartsAtTheUnlockCostWithTheCurrentOnePreselected() throws {
        let terminal = GridTerminal(size: TerminalSize(rows: 20, columns: 90))
        terminal.press(.enter, .enter, .enter, .enter, .enter)
        var (screen, flow) = try wizard(terminal, defaultPath: "/unused", firstRun: false)
        let choices = try #require(try flow.run())
        #expect(choices.parameters == .moderate, "stepping through keeps the current cost")
        #expect(
            choices.clipboardTimeout == 45 && choices.keepsAgentUnlocked, "stepping through keeps the agent's setting")
        #expect(terminal.frames.first?.text.contains("pwtui — configure (step 1 of 5)") == true)
        let costs = try #require(terminal.frames.last { $0.text.contains("How long should unlocking take?") }).text
        #expect(costs.contains("▸ about") && costs.contains("\(KDFParameters.moderate) (current)"), "\(costs)")
        #expect(screen.costOptions.count == options.count + 1, "the measured costs are offered too")
        let summary = try #require(terminal.frames.last).text
        #expect(summary.contains("(unchanged)") && summary.contains("not re-encrypted"), "\(summary)")
    }

    @Test func reconfigureToAnotherCostSaysItReEncrypts() throws {
        let terminal = GridTerminal(size: TerminalSize(rows: 20, columns: 90))
        terminal.press(.down, .enter, .enter, .enter, .enter, .enter)
        var (_, flow) = try wizard(terminal, defaultPath: "/unused", firstRun: false)
        let choices = try #require(try flow.run())
        #expect(choices.parameters != .moderate)
        #expect(terminal.frames.last?.text.contains("re-encrypts the vault") == true)
    }

    @Test func aClipboardTimeoutOfZeroIsSummarisedAsNever() throws {
        let terminal = GridTerminal(size: TerminalSize(rows: 20, columns: 90))
        terminal.press(.enter, .enter, .control("u"))
        terminal.type("0")
        terminal.press(.enter, .enter, .enter)
        var (_, flow) = try wizard(terminal, defaultPath: "/unused", firstRun: false)
        #expect(try flow.run()?.clipboardTimeout == 0)
        let summary = try #require(terminal.frames.last).text
        #expect(summary.contains("Clipboard cleared: never"), "\(summary)")
        #expect(!summary.contains("after 0 s"))
    }
}

@Suite struct SettingsAndStrengthTests {
    @Test func settingsRoundTripAndRefuseNonsense() throws {
        let settings = Settings(vault: "/home/a \"b\"/v.pwtui", theme: "high-contrast", clipboardTimeout: 12)
        #expect(try Settings.parse(settings.text, path: "c") == settings)
        #expect(throws: Settings.LoadError.malformed(path: "c", line: 2, problem: "unknown setting 'colour'")) {
            _ = try Settings.parse("# x\ncolour = \"red\"\n", path: "c")
        }
        #expect(throws: Settings.LoadError.self) { _ = try Settings.parse("clipboard_timeout = -1", path: "c") }
        let directory = NSTemporaryDirectory() + "pwtui-settings-" + UUID().uuidString
        let path = directory + "/config.toml"
        try settings.save(to: path)
        #expect(try Settings.load(from: path) == settings)
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        try FileManager.default.setAttributes([.posixPermissions: 0o666], ofItemAtPath: path)
        #expect(throws: Settings.LoadError.unsafePermissions(path: path)) { _ = try Settings.load(from: path) }
        #expect(try Settings.load(from: directory + "/missing.toml") == Settings())
    }

    func strength(_ text: String) -> PasswordStrength {
        Array(text.utf8).withUnsafeBytes { PasswordStrength(utf8: $0) }
    }

    @Test func strengthGrowsWithLengthAndVariety() {
        #expect(strength("hunter2").verdict == .weak)
        #expect(strength("aaaaaaaaaaaaaaaaaaaa").verdict == .weak)
        #expect(strength("tiger lamp orbit velvet seven").verdict == .strong)
        #expect(strength("Xk9#mQ2!vR").bits > strength("xk9mq2vr").bits)
    }

    @Test func calibrationScalesMemoryFirstThenPasses() {
        let options = KDFCalibration.options(floorSeconds: 0.065)
        #expect(options.map(\.targetSeconds) == [0.5, 1, 3])
        #expect(options[0].parameters.opsLimit == 3 && options[0].parameters.memLimitKiB > 64 * 1024)
        #expect(options[2].parameters.memLimitKiB == 1024 * 1024 && options[2].parameters.opsLimit > 3)
        for option in options {
            #expect(option.parameters.isStrongEnoughToWrite)
            #expect(KDFParameters.Bounds.standard.admits(option.parameters))
            #expect(abs(option.estimatedSeconds - option.targetSeconds) / option.targetSeconds < 0.2)
        }
        // A slow machine never goes below the floor.
        #expect(KDFCalibration.options(floorSeconds: 5).allSatisfy { $0.parameters == .minimumForWriting })
    }
}
