import ArgumentParser
import Foundation
import TUI
import VaultCrypto
import VaultModel

/// `pwtui` alone: the picker over every credential, or, when there is no vault yet, the
/// first-run wizard followed by the (empty) picker.
struct StartCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "start", abstract: "What plain `pwtui` runs.", shouldDisplay: false)

    @OptionGroup var global: GlobalOptions

    func run() throws {
        let path = global.vaultPath
        if FileManager.default.fileExists(atPath: path) {
            try pointingOnWhenEmpty(vault: nil) {
                try PickCommand.runPicker(vaultPath: path, requests: [], global: global, output: .password)
            }
            return
        }
        let terminal = try PickCommand.openTerminal(theme: try global.settings().theme)
        let vault: Vault
        do {
            guard let created = try ConfigureCommand.firstRun(on: terminal, global: global) else {
                terminal.close()
                throw CommandFailure(.cancelled, "setup cancelled; nothing was created")
            }
            vault = created
        } catch {
            terminal.close()
            throw error
        }
        try pointingOnWhenEmpty(vault: vault) {
            try PickCommand.runPicker(vaultPath: vault.path, requests: [], global: global, output: .password,
                                      unlocked: vault, terminal: terminal)
        }
    }

    /// Left with an empty vault (just created, or nothing added yet), the user is told the next
    /// command, in a form that runs: `make run` puts nothing on PATH.
    private func pointingOnWhenEmpty(vault: Vault?, _ picker: () throws -> Void) throws {
        do {
            try picker()
        } catch let failure as CommandFailure where failure.code == .cancelled {
            let empty = vault.map { $0.contents.credentials.isEmpty } ?? (try? global.currentIdentityStore())?.identities.isEmpty
            if empty == true {
                StandardError.say("The vault is empty. Add a credential (the password is asked, or read from stdin):\n  "
                    + Invocation.current.nextStep("add github.com --username NAME"))
            }
            throw failure
        }
    }
}

/// `pwtui configure`: the configuration screen. Without a vault it is the first-run wizard; with
/// one it changes the unlock cost (re-encrypting, after the master password), the theme and the
/// clipboard timeout.
struct ConfigureCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "configure", abstract: "Change the unlock cost, theme and clipboard timeout (or set up a first vault).")

    @OptionGroup var global: GlobalOptions

    func run() throws {
        let path = global.vaultPath
        guard FileManager.default.fileExists(atPath: path) else {
            let terminal = try PickCommand.openTerminal(theme: try global.settings().theme)
            defer { terminal.close() }
            guard try Self.firstRun(on: terminal, global: global) != nil else {
                throw CommandFailure(.cancelled, "setup cancelled; nothing was created")
            }
            return
        }
        let password = try global.masterPassword()
        let vault = try Vault.open(at: path, password: password)
        var settings = try global.settings()
        let terminal = try PickCommand.openTerminal(theme: settings.theme)
        let choices: ConfigurationScreen.Choices?
        do {
            defer { terminal.close() }
            var screen = try Self.screen(
                firstRun: false,
                defaults: .init(vaultPath: path, parameters: vault.header.kdf, theme: settings.theme, clipboardTimeout: settings.clipboardTimeout))
            choices = try terminal.run(&screen)
        }
        guard let choices else { throw CommandFailure(.cancelled, "nothing changed") }
        if choices.parameters != vault.header.kdf {
            StandardError.say("Re-encrypting \(path) with \(choices.parameters)…")
            let previous = vault.header.generation
            try vault.changePassword(to: password, parameters: choices.parameters)
            global.syncIdentities(with: vault, previousGeneration: previous)
        }
        settings.theme = choices.theme
        settings.clipboardTimeout = choices.clipboardTimeout
        try settings.save(to: global.configPath)
        StandardError.say("Settings saved to \(global.configPath).")
    }

    static func screen(firstRun: Bool, defaults: ConfigurationScreen.Choices) throws -> ConfigurationScreen {
        try ConfigurationScreen(firstRun: firstRun, defaults: defaults, themes: ThemeLocator.available(),
                                calibrate: { try KDFCalibration.measure(with: Argon2id()) },
                                loadTheme: { ThemeLocator.current(named: $0) })
    }

    /// The first-run wizard; creates the vault and the settings. Nil when cancelled.
    static func firstRun(on terminal: Terminal, global: GlobalOptions) throws -> Vault? {
        let settings = try global.settings()
        var screen = try Self.screen(
            firstRun: true,
            defaults: .init(vaultPath: global.vaultPath, parameters: .moderate, theme: settings.theme,
                            clipboardTimeout: settings.clipboardTimeout))
        guard let choices = try terminal.run(&screen) else { return nil }
        try VaultStorage.createDirectory(for: choices.vaultPath)
        let vault = try screen.withPassword { try Vault.create(at: choices.vaultPath, password: $0, parameters: choices.parameters) }
        try global.save(vault)
        let defaultPath = GlobalOptions.defaultVaultPath
        var saved = settings
        saved.vault = choices.vaultPath == defaultPath ? nil : choices.vaultPath
        saved.theme = choices.theme
        saved.clipboardTimeout = choices.clipboardTimeout
        try saved.save(to: global.configPath)
        return vault
    }
}
