import FoundationEssentials
import Passwords
import Platform
import VaultCrypto
import VaultModel

/// The configuration screen (AutoFill's "prepare interface for extension configuration"): the
/// first-run wizard, and `pwtui configure` for an existing vault. One step at a time — vault
/// location, master password (twice, with a strength estimate), unlock cost measured on this
/// machine, theme (previewed live), clipboard timeout, whether unlocking keeps the agent unlocked,
/// summary — Enter goes on, Esc goes back
/// (and cancels on the first step), Ctrl-C quits the wizard (asking first when something typed
/// would be lost: a password, a changed path or choice).
///
/// A class because it owns the new master password in protected memory while the wizard runs.
/// The slow and outside parts come in at `init`: `calibrate` measures the unlock costs (shown as
/// busy, through `.work`), `loadTheme` gives the theme previewed live (through `.useTheme`).
public final class ConfigurationScreen: Screen {
    public typealias Step = ConfigurationStep
    public typealias Choices = ConfigurationChoices
    public typealias Result = Choices

    public enum Action: Sendable {
        case advance, choosePrevious, chooseNext, back, deleteCharacter, clear, quit
    }

    public static let bindings: [KeyBinding<Action>] = [
        KeyBinding([.enter], "Enter", "next", .advance),
        KeyBinding([.up, .control("p"), .left], "↑↓", "choose", .choosePrevious),
        KeyBinding([.down, .control("n"), .right, .tab], "", "", .chooseNext, inHelpBar: false),
        KeyBinding([.backspace], "", "", .deleteCharacter, inHelpBar: false),
        KeyBinding([.control("u")], "", "", .clear, inHelpBar: false),
        KeyBinding([.escape], "Esc", "back", .back),
        KeyBinding([.control("c")], "^C", "quit", .quit),
    ]

    /// The help bar of `step`: its bindings, without "choose" where there is nothing to choose.
    public static func helpBar(for step: Step) -> String {
        KeyBinding.helpBar(bindings.filter { step.offersChoice || $0.action != .choosePrevious })
    }

    public let steps: [Step]
    /// The first-run wizard (a vault is created), not `configure`.
    public let firstRun: Bool
    public private(set) var step: Step
    public private(set) var choices: Choices
    public let themes: [String]
    /// The unlock costs measured on this machine (by `work`, on reaching that step).
    public private(set) var calibration: [KDFCalibration.Option] = [] {
        didSet { costIndex = costOptions.firstIndex { $0.parameters == current } ?? 0 }
    }
    /// The vault's unlock cost today (`configure`; nil on the first run): offered, marked and
    /// preselected, so stepping through changes nothing and re-encrypts nothing.
    public let current: KDFParameters?
    public var minimumSize: TerminalSize { TerminalSize(rows: 12, columns: 50) }
    let calibrate: () throws -> [KDFCalibration.Option]
    let loadTheme: (String) -> Theme
    /// The summary's word on which vault the settings will name, for the path chosen (the first
    /// run: a vault named by PWTUI_VAULT or --vault is not written into them), or on what named
    /// the vault being configured.
    public var settingsVaultNote: ((String) -> String)?
    /// Shown while the calibration runs.
    private var busy: String?
    private var costIndex = 0
    private var themeIndex = 0
    /// The agent step's option in view: whether an unlock keeps the agent unlocked, and whether
    /// the agent also serves the Secret Service (`agentOptions`).
    private var agentChoice = AgentOption(keepsUnlocked: true, servesKeyring: false)

    private struct AgentOption: Equatable {
        let keepsUnlocked: Bool
        let servesKeyring: Bool
    }

    /// The agent step's options, in order: unlocked; unlocked and the desktop keyring; neither.
    private static let agentOptions: [(AgentOption, String)] = [
        (AgentOption(keepsUnlocked: true, servesKeyring: false), "yes: the agent keeps it unlocked (agent = \"auto\")"),
        (
            AgentOption(keepsUnlocked: true, servesKeyring: true),
            "yes, and be the desktop keyring too (secret_service = true)"
        ),
        (AgentOption(keepsUnlocked: false, servesKeyring: false), "no: only pwtui unlock does (agent = \"off\")"),
    ]

    private var chosenAgentOption: AgentOption {
        AgentOption(keepsUnlocked: choices.keepsAgentUnlocked, servesKeyring: choices.servesKeyring)
    }
    private var field: String
    private var password: SecureBytes
    private var confirmation: SecureBytes
    private var message: (text: String, role: StyleRole)?
    /// What the wizard started from: quitting asks first only when something differs from it.
    private let defaults: Choices
    private let home: String
    /// Ctrl-C was pressed with something typed: the next key answers "quit?" (y or Ctrl-C quits).
    public private(set) var confirmingQuit = false
    /// A password under `MasterPasswordPolicy.minimumBits` once refused with a warning: Enter on
    /// the same password again keeps it (the wizard's `--allow-weak`); any other asks again.
    private var weakPasswordWarned: SecureBytes

    /// `firstRun`: every step; otherwise (an existing vault) from the unlock cost on.
    /// `home`: what a typed "~/" stands for.
    public init(
        firstRun: Bool, defaults: Choices, themes: [String], home: String,
        calibrate: @escaping () throws -> [KDFCalibration.Option], loadTheme: @escaping (String) -> Theme
    ) throws(VaultCryptoError) {
        self.firstRun = firstRun
        steps =
            firstRun
            ? [.location, .password, .confirmation, .unlockCost, .theme, .clipboard, .agent, .summary]
            : [.unlockCost, .theme, .clipboard, .agent, .summary]
        step = steps[0]
        choices = defaults
        self.defaults = defaults
        current = firstRun ? nil : defaults.parameters
        self.themes = themes.isEmpty ? ["default"] : themes
        self.calibrate = calibrate
        self.loadTheme = loadTheme
        self.home = home
        themeIndex = self.themes.firstIndex(of: defaults.theme) ?? 0
        field = firstRun ? defaults.vaultPath : ""
        password = try SecureBytes(capacity: 128)
        confirmation = try SecureBytes(capacity: 128)
        weakPasswordWarned = try SecureBytes(capacity: 128)
        busy = entering()
    }

    /// Lends the new master password (first run only).
    public func withPassword<Result>(_ body: (borrowing SecureBytes) throws -> Result) rethrows -> Result {
        try body(password)
    }

    /// `configure` opens on the unlock cost, which must be measured first.
    public var opening: Transition<Choices> { busy == nil ? .stay : .work }

    /// Measures the unlock costs (the frame before said so).
    public func work() throws -> Transition<Choices> {
        defer { busy = nil }
        calibration = try calibrate()
        return .stay
    }

    /// What entering the current step needs: the busy line when its options must be measured.
    private func entering() -> String? {
        step == .unlockCost && calibration.isEmpty ? "Measuring how fast this machine derives keys…" : nil
    }

    public func handle(_ event: TerminalEvent, context: ScreenContext) -> Transition<Choices> {
        guard case .key(let key) = event else { return .stay }
        message = nil
        if confirmingQuit {
            confirmingQuit = false
            let action = KeyBinding.action(for: key, in: Self.bindings)
            return key == .text("y") || key == .text("Y") || action == .quit ? .cancel : .stay
        }
        if case .text(let scalar) = key {
            type(scalar)
            return .stay
        }
        switch KeyBinding.action(for: key, in: Self.bindings) {
        case .back:
            guard let index = steps.firstIndex(of: step), index > 0 else { return .cancel }
            enter(steps[index - 1])
            return step == .theme ? .useTheme(loadTheme(themes[themeIndex])) : .stay
        case .quit:
            guard hasUnsavedInput else { return .cancel }
            confirmingQuit = true
            return .stay
        case .advance:
            return advance()
        case .choosePrevious:
            return choose(by: -1)
        case .chooseNext:
            return choose(by: 1)
        case .deleteCharacter:
            switch step {
            case .password: password.removeLastCharacter()
            case .confirmation: confirmation.removeLastCharacter()
            default: if !field.isEmpty { field.removeLast() }
            }
        case .clear:
            switch step {
            case .password: password.removeAll()
            case .confirmation: confirmation.removeAll()
            default: field = ""
            }
        case nil: break
        }
        return .stay
    }

    /// Whether quitting would throw away something the person typed or chose: a password, a
    /// path, a choice other than the defaults, or text in the field being edited.
    public var hasUnsavedInput: Bool {
        if !password.isEmpty || !confirmation.isEmpty || choices != defaults { return true }
        switch step {
        case .location: return field != defaults.vaultPath
        case .clipboard: return field != String(choices.clipboardTimeout)
        case .unlockCost:
            return !calibration.isEmpty && costOptions.indices.contains(costIndex)
                && costOptions[costIndex].parameters != choices.parameters
        case .theme: return themes[themeIndex] != choices.theme
        case .agent: return agentChoice != chosenAgentOption
        default: return false
        }
    }

    private func type(_ scalar: Unicode.Scalar) {
        switch step {
        case .password, .confirmation:
            for byte in String(Character(scalar)).utf8 {
                if step == .password { try? password.append(byte) } else { try? confirmation.append(byte) }
            }
        case .location:
            field.unicodeScalars.append(scalar)
        case .clipboard:
            if scalar.properties.numericType == .decimal, field.count < 4 { field.unicodeScalars.append(scalar) }
        default: break
        }
    }

    private func choose(by delta: Int) -> Transition<Choices> {
        switch step {
        case .unlockCost where !calibration.isEmpty:
            costIndex = min(max(costIndex + delta, 0), costOptions.count - 1)
        case .theme:
            themeIndex = (themeIndex + delta + themes.count) % themes.count
            return .useTheme(loadTheme(themes[themeIndex]))
        case .agent:
            let options = Self.agentOptions.map(\.0)
            let index = options.firstIndex(of: agentChoice) ?? 0
            agentChoice = options[(index + delta + options.count) % options.count]
        default: break
        }
        return .stay
    }

    private func advance() -> Transition<Choices> {
        switch step {
        case .location:
            let path = Paths.expandingTilde(in: field, home: home)
            guard path.hasPrefix("/") else {
                message = ("Give an absolute path (or ~/…)", .error)
                return .stay
            }
            guard !FileSystem.exists(path) else {
                message = ("A file already exists there; choose another place", .error)
                return .stay
            }
            choices.vaultPath = path
        case .password:
            guard !password.isEmpty else {
                message = ("The master password must not be empty", .error)
                return .stay
            }
            let strength = password.withUnsafeBytes { PasswordStrength(utf8: $0) }
            if !MasterPasswordPolicy.accepts(strength), !password.isEqual(to: weakPasswordWarned) {
                weakPasswordWarned.removeAll()
                try? weakPasswordWarned.append(contentsOf: password)
                let key = Self.bindings.first { $0.action == .advance }?.label ?? "Enter"
                message = (
                    "Under the \(MasterPasswordPolicy.minimumBits)-bit minimum: \(key) again keeps it, "
                        + "or type 4 random words", .error
                )
                return .stay
            }
        case .confirmation:
            guard password.isEqual(to: confirmation) else {
                confirmation.removeAll()
                password.removeAll()
                enter(.password)
                message = ("The two entries differ; type it again", .error)
                return .stay
            }
        case .unlockCost:
            guard !calibration.isEmpty, costOptions.indices.contains(costIndex) else { return measuring() }
            choices.parameters = costOptions[costIndex].parameters
        case .theme:
            choices.theme = themes[themeIndex]
        case .clipboard:
            guard let seconds = Int(field), seconds <= 3600 else {
                message = ("A number of seconds, 0 to 3600 (0: never clear)", .error)
                return .stay
            }
            choices.clipboardTimeout = seconds
        case .agent:
            choices.keepsAgentUnlocked = agentChoice.keepsUnlocked
            choices.servesKeyring = agentChoice.servesKeyring
        case .summary:
            return .finish(choices)
        }
        guard let index = steps.firstIndex(of: step), index + 1 < steps.count else { return .finish(choices) }
        enter(steps[index + 1])
        return measuring()
    }

    /// `.work` (with its busy line) when the step reached needs its options measured.
    private func measuring() -> Transition<Choices> {
        busy = entering()
        return busy == nil ? .stay : .work
    }

    /// The unlock costs offered, cheapest first: the measured ones and, with `configure`, the
    /// current one (its time estimated from the measurement: Argon2id's time is proportional to
    /// memory × passes).
    public var costOptions: [(parameters: KDFParameters, estimatedSeconds: Double)] {
        var options = calibration.map { (parameters: $0.parameters, estimatedSeconds: $0.estimatedSeconds) }
        if let current, !options.contains(where: { $0.parameters == current }), let reference = calibration.first {
            let work = { (parameters: KDFParameters) in Double(parameters.memLimitKiB) * Double(parameters.opsLimit) }
            options.append((current, reference.estimatedSeconds * work(current) / work(reference.parameters)))
        }
        return options.sorted { $0.estimatedSeconds < $1.estimatedSeconds }
    }

    private func enter(_ next: Step) {
        step = next
        switch next {
        case .location: field = choices.vaultPath
        case .clipboard: field = String(choices.clipboardTimeout)
        case .agent: agentChoice = chosenAgentOption
        case .confirmation: confirmation.removeAll()
        default: break
        }
    }

    // MARK: Drawing

    /// `text` in lines of at most `width` columns, broken at spaces; a word longer than a line
    /// (a path) is cut where the line ends.
    static func wrapped(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var current = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: false).map(String.init) {
            let candidate = current.isEmpty ? word : current + " " + word
            if TextWidth.columns(of: candidate) <= width {
                current = candidate
                continue
            }
            if !current.isEmpty { lines.append(current) }
            var pieces = CredentialDetailScreen.wrap(word, width: width)
            current = pieces.popLast() ?? ""
            lines += pieces
        }
        if !current.isEmpty || lines.isEmpty { lines.append(current) }
        return lines
    }

    public func render(into canvas: inout Canvas) {
        let size = canvas.size
        let number = (steps.firstIndex(of: step) ?? 0) + 1
        let title = firstRun ? "pwtui — first-run setup" : "pwtui — configure"
        canvas.put("\(title) (step \(number) of \(steps.count))", row: 0, column: 0, role: .title)
        var row = 2
        func line(_ text: String, _ role: StyleRole = .normal, column: Int = 0) {
            canvas.put(text, row: row, column: column, role: role)
            row += 1
        }
        /// A labelled field with the cursor after its text.
        func input(_ label: String, _ text: String) {
            let end = canvas.put(label, row: row, column: 0)
            let after = canvas.put(text, row: row, column: end, role: .input)
            canvas.cursor = Canvas.Position(row: row, column: min(after, size.columns - 1))
            row += 1
        }
        switch step {
        case .location:
            line("Where should the vault live?", .header)
            line("It is the one file to back up or sync; it stays encrypted wherever it goes.", .dim)
            row += 1
            input("Vault: ", field)
        case .password, .confirmation:
            line(step == .password ? "Choose a master password" : "Type the master password again", .header)
            line("It cannot be recovered: without it the vault cannot be opened.", .dim)
            row += 1
            let secret = step == .password ? password.characterCount : confirmation.characterCount
            input("Master password: ", String(repeating: "•", count: secret))
            row += 1
            if step == .password, !password.isEmpty {
                let strength = password.withUnsafeBytes { PasswordStrength(utf8: $0) }
                let role: StyleRole =
                    switch strength.verdict {
                    case .weak: .error
                    case .fair: .warning
                    case .strong: .match
                    }
                line("Strength: " + strength.summary, role)
            }
        case .unlockCost:
            line("How long should unlocking take?", .header)
            line("Slower unlocking makes guessing the password slower too. Measured on this machine:", .dim)
            row += 1
            for (index, option) in costOptions.enumerated() {
                // One decimal, as "%.1f" wrote it: tenths rounded, then divided (1.0, 0.3, 12.5).
                let tenths = (option.estimatedSeconds * 10).rounded()
                let seconds = tenths.isFinite && abs(tenths) < 1e12 ? "\(tenths / 10)" : "?"
                let label =
                    "about \(seconds) s — \(option.parameters.description)"
                    + (option.parameters == current ? " (current)" : "")
                if index == costIndex { canvas.fill(row: row, role: .selected) }
                line((index == costIndex ? "▸ " : "  ") + label, index == costIndex ? .selected : .normal)
            }
        case .theme:
            line("Theme", .header)
            line("↑↓ changes it; the whole screen shows it at once.", .dim)
            row += 1
            for (index, name) in themes.enumerated() {
                if index == themeIndex { canvas.fill(row: row, role: .selected) }
                line((index == themeIndex ? "▸ " : "  ") + name, index == themeIndex ? .selected : .normal)
            }
            row += 1
            line("Sample: section", .section)
            line("  GitHub   alice   github.com (same-host)", .match)
            line("  A warning looks like this", .warning)
        case .clipboard:
            line("Clear the clipboard after how many seconds?", .header)
            line("A copied password is removed again after this time (0: never).", .dim)
            row += 1
            input("Seconds: ", field)
        case .agent:
            line("After you type the master password, keep the vault unlocked?", .header)
            line("The agent then answers get, the picker and git without asking, until it has been", .dim)
            line("unused for a while (agent_idle_timeout, 15 minutes unless changed). As the desktop", .dim)
            line("keyring, it also keeps what Chromium, secret-tool and Python's keyring store.", .dim)
            row += 1
            for (option, label) in Self.agentOptions {
                let chosen = option == agentChoice
                if chosen { canvas.fill(row: row, role: .selected) }
                line((chosen ? "▸ " : "  ") + label, chosen ? .selected : .normal)
            }
        case .summary:
            line("Summary", .header)
            row += 1
            // Wrapped, not cut at the edge: the note names the vault later commands open, and a
            // long path put that name past the 100th column (issue 38).
            let indent = String(repeating: " ", count: 19)
            let width = max(size.columns - indent.count, 20)
            for (index, piece) in Self.wrapped(choices.vaultPath, width: width).enumerated() {
                line((index == 0 ? "Vault:             " : indent) + piece)
            }
            if let note = settingsVaultNote?(choices.vaultPath) {
                for piece in Self.wrapped(note, width: width) { line(indent + piece, .dim) }
            }
            line("Unlock cost:       \(choices.parameters)" + (choices.parameters == current ? " (unchanged)" : ""))
            line("Theme:             \(choices.theme)")
            line(
                "Clipboard cleared: "
                    + (choices.clipboardTimeout == 0 ? "never" : "after \(choices.clipboardTimeout) s"))
            line(
                "After an unlock:   "
                    + (choices.keepsAgentUnlocked
                        ? "the agent keeps the vault unlocked" : "only pwtui unlock unlocks the agent"))
            if choices.servesKeyring { line("Desktop keyring:   the agent serves the Secret Service") }
            row += 1
            let verb =
                firstRun
                ? "Enter creates the vault."
                : choices.parameters == current
                    ? "Enter applies the changes (the vault is not re-encrypted)."
                    : "Enter applies the changes and re-encrypts the vault."
            line(verb, .dim)
        }
        if let busy {
            canvas.put(busy, row: size.rows - 3, column: 0, role: .warning)
        } else if confirmingQuit {
            let question = firstRun ? "Quit the setup? No vault is created." : "Quit? Nothing is changed."
            canvas.put(question + " What you entered is lost.", row: size.rows - 3, column: 0, role: .warning)
            canvas.put("y quits, any other key goes on", row: size.rows - 2, column: 0, role: .warning)
        } else if let message {
            canvas.put(message.text, row: size.rows - 3, column: 0, role: message.role)
        }
        canvas.fill(row: size.rows - 1, role: .help)
        canvas.put(Self.helpBar(for: step), row: size.rows - 1, column: 0, role: .help)
    }
}
