import VaultCrypto

/// The authentication screen (AutoFill's "prepare interface to provide credential"): asks for
/// the master password before anything secret leaves the vault.
///
/// Keystrokes go straight into `SecureBytes`; the field shows one • per character and nothing
/// else of it. A class rather than a value because it owns that protected buffer, which must
/// exist exactly once.
public final class MasterPasswordScreen {
    public enum Outcome: Equatable {
        case stay
        case submit
        case cancelled
    }

    public static let bindings: [KeyBinding<Action>] = [
        KeyBinding([.enter], "Enter", "unlock", .submit),
        KeyBinding([.control("u")], "^U", "clear", .clear),
        KeyBinding([.backspace], "", "", .deleteCharacter, inHelpBar: false),
        KeyBinding([.escape, .control("c")], "Esc", "cancel", .cancel),
    ]

    public enum Action: Sendable {
        case submit, clear, deleteCharacter, cancel
    }

    let vaultPath: String
    let hint: String?
    private(set) var password: SecureBytes
    public var message: (text: String, role: StyleRole)?
    /// What the password is asked for ("to use GitHub (alice)"), when a choice came first.
    public var purpose: String?
    /// Shown while Argon2id runs; the screen accepts no input meanwhile.
    public var busy: String?
    private static let tooSmall = TooSmallNotice(minimum: TerminalSize(rows: 8, columns: 30))
    /// The last frame was "Terminal too small": typing or Enter there would act unseen.
    private var showedTooSmall = false

    /// `hint` is shown under the field (the demo vault's password, nothing else).
    public init(vaultPath: String, hint: String? = nil) throws(VaultCryptoError) {
        self.vaultPath = vaultPath
        self.hint = hint
        password = try SecureBytes(capacity: 128)
    }

    public func handle(_ event: TerminalEvent) -> Outcome {
        guard busy == nil, case .key(let key) = event, !showedTooSmall || TooSmallNotice.acts(event) else { return .stay }
        if case .text(let scalar) = key {
            for byte in String(Character(scalar)).utf8 {
                guard (try? password.append(byte)) != nil else { return .stay }
            }
            return .stay
        }
        switch KeyBinding.action(for: key, in: Self.bindings) {
        case .submit: return .submit
        case .cancel: return .cancelled
        case .clear:
            password.removeAll()
        case .deleteCharacter:
            password.removeLastCharacter()
        case nil: break
        }
        return .stay
    }

    /// Lends the typed password (to unlock with), then forgets it.
    public func consumePassword<Result>(_ body: (borrowing SecureBytes) throws -> Result) rethrows -> Result {
        defer { password.removeAll() }
        return try body(password)
    }

    public func render(into canvas: inout Canvas) {
        let size = canvas.size
        showedTooSmall = Self.tooSmall.draw(into: &canvas)
        guard !showedTooSmall else { return }
        canvas.put("pwtui — unlock", row: 0, column: 0, role: .title)
        if let purpose { canvas.put(purpose, row: 1, column: 0) }
        canvas.put("Vault: \(vaultPath)", row: 2, column: 0, role: .dim)
        let label = "Master password: "
        let start = canvas.put(label, row: 4, column: 0)
        let dots = String(repeating: "•", count: password.characterCount)
        let end = canvas.put(dots, row: 4, column: start, role: .input)
        if busy == nil { canvas.cursor = Canvas.Position(row: 4, column: min(end, size.columns - 1)) }
        if let hint { canvas.put(hint, row: 5, column: start, role: .dim) }
        if let busy {
            canvas.put(busy, row: 6, column: 0, role: .warning)
        } else if let message {
            canvas.put(message.text, row: 6, column: 0, role: message.role)
        }
        canvas.fill(row: size.rows - 1, role: .help)
        canvas.put(KeyBinding.helpBar(Self.bindings), row: size.rows - 1, column: 0, role: .help)
    }
}
