import VaultCrypto
import VaultModel

/// The authentication screen (AutoFill's "prepare interface to provide credential"): asks for
/// the master password before anything secret leaves the vault, tries it, and after
/// `maximumAttempts` wrong ones gives up.
///
/// Keystrokes go straight into `SecureBytes`; the field shows one • per character and nothing
/// else of it. A class rather than a value because it owns that protected buffer, which must
/// exist exactly once. Generic over what unlocking gives (`Unlocked`: an open vault for pwtui),
/// so the screen knows how to ask and count tries, not what a vault is.
public final class MasterPasswordScreen<Unlocked>: Screen {
    public enum Result {
        case unlocked(Unlocked)
        /// Every try was wrong.
        case outOfTries(attempts: Int)
    }

    public static var bindings: [KeyBinding<PasswordFieldAction>] { PasswordFieldAction.bindings }

    public static var defaultMaximumAttempts: Int { 3 }

    public var minimumSize: TerminalSize { TerminalSize(rows: 8, columns: 30) }

    let vaultPath: String
    let hint: String?
    /// What the password is asked for ("To use GitHub (alice)"), when a choice came first.
    let purpose: String?
    let unlockingMessage: String
    let maximumAttempts: Int
    let unlock: (borrowing SecureBytes) throws -> Unlocked
    private var password: SecureBytes
    private var message: (text: String, role: StyleRole)?
    /// True from Enter until the try is over: the frame drawn meanwhile says it is unlocking.
    private var unlocking = false
    private var failures = 0

    /// `unlock` opens with the typed password, throwing `VaultError.wrongPassword` for a wrong
    /// one (any other error ends the run). `hint` is shown under the field (the demo vault's
    /// password, or which password opens a vault whose change was interrupted).
    public init(
        vaultPath: String, hint: String? = nil, purpose: String? = nil, unlockingMessage: String = "Unlocking…",
        maximumAttempts: Int = MasterPasswordScreen.defaultMaximumAttempts,
        unlock: @escaping (borrowing SecureBytes) throws -> Unlocked
    ) throws(VaultCryptoError) {
        self.vaultPath = vaultPath
        self.hint = hint
        self.purpose = purpose
        self.unlockingMessage = unlockingMessage
        self.maximumAttempts = maximumAttempts
        self.unlock = unlock
        password = try SecureBytes(capacity: 128)
    }

    public func handle(_ event: TerminalEvent, context: ScreenContext) -> Transition<Result> {
        guard case .key(let key) = event else { return .stay }
        if case .text(let scalar) = key {
            for byte in String(Character(scalar)).utf8 {
                guard (try? password.append(byte)) != nil else { return .stay }
            }
            return .stay
        }
        switch KeyBinding.action(for: key, in: Self.bindings) {
        case .submit:
            unlocking = true
            return .work
        case .cancel: return .cancel
        case .clear:
            password.removeAll()
        case .deleteCharacter:
            password.removeLastCharacter()
        case nil: break
        }
        return .stay
    }

    /// Tries the typed password (Argon2id: slow), then forgets it.
    public func work() throws -> Transition<Result> {
        defer {
            password.removeAll()
            unlocking = false
        }
        do {
            return .finish(.unlocked(try unlock(password)))
        } catch VaultError.wrongPassword {
            failures += 1
            guard failures < maximumAttempts else { return .finish(.outOfTries(attempts: failures)) }
            let left = maximumAttempts - failures
            message = ("Wrong master password — \(left) \(left == 1 ? "try" : "tries") left", .error)
            return .stay
        }
    }

    public func render(into canvas: inout Canvas) {
        let size = canvas.size
        canvas.put("pwtui — unlock", row: 0, column: 0, role: .title)
        if let purpose { canvas.put(purpose, row: 1, column: 0) }
        canvas.put("Vault: \(vaultPath)", row: 2, column: 0, role: .dim)
        let label = "Master password: "
        let start = canvas.put(label, row: 4, column: 0)
        let dots = String(repeating: "•", count: password.characterCount)
        let end = canvas.put(dots, row: 4, column: start, role: .input)
        if !unlocking { canvas.cursor = Canvas.Position(row: 4, column: min(end, size.columns - 1)) }
        if let hint { canvas.put(hint, row: 5, column: start, role: .dim) }
        if unlocking {
            canvas.put(unlockingMessage, row: 6, column: 0, role: .warning)
        } else if let message {
            canvas.put(message.text, row: 6, column: 0, role: message.role)
        }
        canvas.fill(row: size.rows - 1, role: .help)
        canvas.put(KeyBinding.helpBar(Self.bindings), row: size.rows - 1, column: 0, role: .help)
    }
}

/// What the master-password screen's keys do, and its table (outside the generic screen: a
/// generic type cannot hold a stored static property).
public enum PasswordFieldAction: Sendable {
    case submit, clear, deleteCharacter, cancel

    public static let bindings: [KeyBinding<PasswordFieldAction>] = [
        KeyBinding([.enter], "Enter", "unlock", .submit),
        KeyBinding([.control("u")], "^U", "clear", .clear),
        KeyBinding([.backspace], "", "", .deleteCharacter, inHelpBar: false),
        KeyBinding([.escape, .control("c")], "Esc", "cancel", .cancel),
    ]
}
