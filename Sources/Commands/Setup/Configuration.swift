import FoundationEssentials
import Platform
import ServiceMatching
import TUI
import VaultCrypto
import VaultModel

/// The configuration screen's commands: plain `pwtui` (the picker over everything, or the
/// first-run wizard when there is no vault yet) and `pwtui configure`.
public enum Configuration {
    /// `pwtui` alone: the picker over every credential, or, when there is no vault yet, the
    /// first-run wizard followed by the (empty) picker.
    public static func start(in context: CommandContext) throws {
        let path = context.vaultPath
        if FileSystem.exists(path) {
            try pointingOnWhenEmpty(vault: nil, context) {
                try Picker.run(vaultPath: path, requests: [], context: context, output: .password)
            }
            return
        }
        let terminal = try context.openTerminal(theme: try context.settings().theme)
        let vault: Vault
        do {
            guard let created = try firstRun(on: terminal, context: context) else {
                terminal.close()
                throw CommandFailure(.cancelled, "setup cancelled; nothing was created")
            }
            vault = created
        } catch {
            terminal.close()
            throw error
        }
        try pointingOnWhenEmpty(vault: vault, context) {
            try Picker.run(
                vaultPath: vault.path, requests: [], context: context, output: .password,
                unlocked: vault, terminal: terminal)
        }
    }

    /// Left with an empty vault (just created, or nothing added yet), the user is told the next
    /// command, in a form that runs: `make run` puts nothing on PATH.
    private static func pointingOnWhenEmpty(vault: Vault?, _ context: CommandContext, _ picker: () throws -> Void)
        throws
    {
        do {
            try picker()
        } catch let failure as CommandFailure where failure.code == .cancelled {
            let empty =
                vault.map { $0.contents.credentials.isEmpty }
                ?? (try? context.currentIdentityStore())?.identities.isEmpty
            if empty == true {
                context.streams.say(
                    "The vault is empty. Add a credential (the password is asked, or read from stdin):\n  "
                        + Invocation.current(context.environment).nextStep("add github.com --username NAME"))
            }
            throw failure
        }
    }

    /// `pwtui configure`: without a vault, the first-run wizard; with one, it changes the unlock
    /// cost (re-encrypting, after the master password), the theme and the clipboard timeout.
    public static func configure(in context: CommandContext) throws {
        let path = context.vaultPath
        guard FileSystem.exists(path) else {
            let terminal = try context.openTerminal(theme: try context.settings().theme)
            defer { terminal.close() }
            guard try firstRun(on: terminal, context: context) != nil else {
                throw CommandFailure(.cancelled, "setup cancelled; nothing was created")
            }
            return
        }
        // The unlock cost is in the header, which is not secret: the master password is asked only
        // to re-encrypt, so a theme or a timeout changes without it (an unlocked agent or not).
        let header = try VaultStorage.loadHeader(path)
        var settings = try context.settings()
        let terminal = try context.openTerminal(theme: settings.theme)
        let choices: ConfigurationScreen.Choices?
        do {
            defer { terminal.close() }
            var screen = try Self.screen(
                firstRun: false,
                defaults: .init(
                    vaultPath: path, parameters: header.kdf, theme: settings.theme,
                    clipboardTimeout: settings.clipboardTimeout,
                    keepsAgentUnlocked: settings.agent == .auto, servesKeyring: settings.secretService),
                context: context)
            let named = context.vaultChoice.source
            screen.settingsVaultNote = { _ in "(named by \(named.description))" }
            choices = try terminal.run(&screen)
        }
        guard let choices else { throw CommandFailure(.cancelled, "nothing changed") }
        if choices.parameters != header.kdf {
            // The vault's one opening (an interrupted passwd said first, the generation check).
            let interrupted = context.interruptedPasswd(of: path)
            let password = try context.masterPassword()
            let vault = try context.open(path, password: password, interrupted: interrupted)
            context.streams.say("Re-encrypting \(path) with \(choices.parameters)…")
            // The same re-key as passwd's: its note while it runs, the generation remembered.
            try ChangeMasterPassword.rekey(vault, to: password, parameters: choices.parameters, in: context)
        }
        settings.theme = choices.theme
        settings.clipboardTimeout = choices.clipboardTimeout
        settings.agent = choices.keepsAgentUnlocked ? .auto : .off
        settings.secretService = choices.servesKeyring
        try settings.save(to: context.configPath)
        context.streams.say("Settings saved to \(context.configPath).")
    }

    /// `configure --use-vault PATH`: the settings name `path` (an existing vault; "default" for
    /// the XDG place), so every later command without --vault or PWTUI_VAULT opens it. Says what
    /// still overrides it.
    public static func nameVault(_ text: String, in context: CommandContext) throws {
        var settings = try context.settings()
        let path: String?
        if text == "default" {
            path = nil
        } else {
            let expanded = Paths.expandingTilde(in: text, home: context.environment["HOME"] ?? "")
            let absolute = FileSystem.absolute(expanded)
            try VaultStorage.requireVaultFile(absolute)
            _ = try VaultStorage.loadHeader(absolute)  // a vault, not any file
            path = absolute == context.paths.defaultVaultFile ? nil : absolute
        }
        settings.vault = path
        try settings.save(to: context.configPath)
        let named = path ?? context.paths.defaultVaultFile
        context.streams.say(
            "Settings saved to \(context.configPath): later commands open \(named)"
                + (context.environment["PWTUI_VAULT"].map {
                    $0.isEmpty ? "" : " (but PWTUI_VAULT, set to \($0), comes first while it is set)"
                } ?? "")
                + ".")
    }

    static func screen(firstRun: Bool, defaults: ConfigurationScreen.Choices, context: CommandContext) throws
        -> ConfigurationScreen
    {
        let environment = context.environment
        return try ConfigurationScreen(
            firstRun: firstRun, defaults: defaults, themes: ThemeLocator.available(environment: environment),
            home: environment["HOME"] ?? "",
            calibrate: { try KDFCalibration.measure(with: Argon2id()) },
            loadTheme: { ThemeLocator.current(named: $0, in: context) })
    }

    /// What the settings' `vault =` becomes when the wizard creates `path`: a vault that
    /// --vault or PWTUI_VAULT named (and the person kept) leaves it as it was, since that name was
    /// for one command or one shell; the default location needs none; any other path typed in
    /// the wizard is the person's lasting choice.
    static func settingsVault(for path: String, named: VaultChoice, settings: Settings, defaultFile: String) -> String?
    {
        if path == named.path, named.source.isTransient { return settings.vault }
        return path == defaultFile ? nil : path
    }

    /// The first-run wizard; creates the vault and the settings. Nil when cancelled.
    static func firstRun(on terminal: Terminal, context: CommandContext) throws -> Vault? {
        let settings = try context.settings()
        var screen = try Self.screen(
            firstRun: true,
            defaults: .init(
                vaultPath: context.vaultPath, parameters: .moderate, theme: settings.theme,
                clipboardTimeout: settings.clipboardTimeout, keepsAgentUnlocked: settings.agent == .auto,
                servesKeyring: settings.secretService),
            context: context)
        let named = context.vaultChoice
        let defaultFile = context.paths.defaultVaultFile
        screen.settingsVaultNote = { path in
            let kept = settingsVault(for: path, named: named, settings: settings, defaultFile: defaultFile)
            let opens = kept ?? defaultFile
            return path == opens
                ? "(the settings name it: later commands open it)"
                : "(named by \(named.source.description): not written to the settings; later commands open \(opens))"
        }
        guard let choices = try terminal.run(&screen) else { return nil }
        try VaultStorage.createDirectory(for: choices.vaultPath)
        let vault = try screen.withPassword {
            try Vault.create(at: choices.vaultPath, password: $0, parameters: choices.parameters)
        }
        try context.save(vault)
        var saved = settings
        saved.vault = settingsVault(for: choices.vaultPath, named: named, settings: settings, defaultFile: defaultFile)
        saved.theme = choices.theme
        saved.clipboardTimeout = choices.clipboardTimeout
        saved.agent = choices.keepsAgentUnlocked ? .auto : .off
        saved.secretService = choices.servesKeyring
        try saved.save(to: context.configPath)
        return vault
    }
}
