import Foundation
import VaultCrypto
import VaultModel

/// The picker as a whole (AutoFill's extension: authenticate, list, complete or cancel). It runs
/// on any `Terminal`, so tests drive the real flow through `GridTerminal`.
///
/// With a `preview` (the identity store, ranked: no secrets) the list comes first, at once; a
/// choice is then answered without unlocking when `answerWithoutUnlocking` can (an unlocked
/// agent), and only otherwise is the master password asked for — Esc there goes back to the
/// list. Without a preview, the master-password screen comes first (three tries), then the list
/// from the opened vault.
public struct PickerFlow {
    public enum Outcome {
        case chosen(Vault, Credential)
        /// Chosen from the preview and answered by `answerWithoutUnlocking`.
        case answeredWithoutUnlocking(UUID)
        case cancelled
        case wrongPassword(attempts: Int)
    }

    public static let maximumAttempts = 3

    let terminal: Terminal
    let vaultPath: String
    let passwordHint: String?
    let unlock: (borrowing SecureBytes) throws -> Vault
    let rank: (Vault) -> [RankedCredential]
    let requestLabel: String?
    let unlockingMessage: String
    let preview: [RankedCredential]?
    let answerWithoutUnlocking: ((UUID) throws -> Bool)?
    let commandName: String

    /// `unlock` opens the vault (throwing `VaultError.wrongPassword` for a wrong password);
    /// `rank` orders its credentials for the request; `requestLabel` names the request in
    /// headings (nil: everything is listed). `preview`: the list to show before unlocking;
    /// `answerWithoutUnlocking`: true when it delivered the chosen credential itself;
    /// `commandName`: how to run pwtui in a hint (its full path when it is not on PATH).
    public init(terminal: Terminal, vaultPath: String, passwordHint: String? = nil, requestLabel: String?,
                unlockingMessage: String = "Unlocking…", preview: [RankedCredential]? = nil,
                answerWithoutUnlocking: ((UUID) throws -> Bool)? = nil, commandName: String = "pwtui",
                unlock: @escaping (borrowing SecureBytes) throws -> Vault, rank: @escaping (Vault) -> [RankedCredential]) {
        self.commandName = commandName
        self.preview = preview
        self.answerWithoutUnlocking = answerWithoutUnlocking
        self.terminal = terminal
        self.vaultPath = vaultPath
        self.passwordHint = passwordHint
        self.requestLabel = requestLabel
        self.unlockingMessage = unlockingMessage
        self.unlock = unlock
        self.rank = rank
    }

    /// `unlocked`: a vault already opened (the master password came from a descriptor), so the
    /// flow starts at the list.
    public func run(unlocked: Vault? = nil) throws -> Outcome {
        if let unlocked { return try choose(in: unlocked) }
        if let preview { return try chooseBeforeUnlocking(preview) }
        guard let result = try authenticate() else { return .cancelled }
        guard let vault = result.value else { return .wrongPassword(attempts: Self.maximumAttempts) }
        return try choose(in: vault)
    }

    private func chooseBeforeUnlocking(_ preview: [RankedCredential]) throws -> Outcome {
        var list = CredentialListScreen(ranked: preview, requestLabel: requestLabel, commandName: commandName)
        while true {
            guard let id = try choose(from: &list) else { return .cancelled }
            if try answerWithoutUnlocking?(id) == true { return .answeredWithoutUnlocking(id) }
            let chosen = list.selected?.credential
            guard let result = try authenticate(purpose: chosen.map { "To use \($0.displayTitle) (\($0.username))" }) else {
                continue  // Esc on the password screen: back to the list
            }
            guard let vault = result.value else { return .wrongPassword(attempts: Self.maximumAttempts) }
            if let credential = vault.contents.credential(withID: id) { return .chosen(vault, credential) }
            // Deleted since the store was written: choose again, from the vault itself.
            return try choose(in: vault)
        }
    }

    private func choose(in vault: Vault) throws -> Outcome {
        var list = CredentialListScreen(ranked: rank(vault), requestLabel: requestLabel, commandName: commandName)
        while true {
            guard let id = try choose(from: &list) else { return .cancelled }
            if let credential = vault.contents.credential(withID: id) { return .chosen(vault, credential) }
        }
    }

    /// The list until a choice (its id) or a cancel (nil).
    private func choose(from list: inout CredentialListScreen) throws -> UUID? {
        while true {
            var canvas = Canvas(size: terminal.size)
            list.render(into: &canvas)
            try terminal.present(canvas)
            let pageSize = max(terminal.size.rows - 5, 1)
            switch list.handle(try terminal.nextEvent(), pageSize: pageSize) {
            case .stay: continue
            case .cancelled: return nil
            case .chosen(let id): return id
            }
        }
    }

    /// A box so that "cancelled" (nil) and "out of tries" (nil value) differ.
    private struct Unlocked { let value: Vault? }

    private func authenticate(purpose: String? = nil) throws -> Unlocked? {
        let screen = try MasterPasswordScreen(vaultPath: vaultPath, hint: passwordHint)
        screen.purpose = purpose
        var failures = 0
        while true {
            var canvas = Canvas(size: terminal.size)
            screen.render(into: &canvas)
            try terminal.present(canvas)
            switch screen.handle(try terminal.nextEvent()) {
            case .stay: continue
            case .cancelled: return nil
            case .submit:
                screen.busy = unlockingMessage
                var busyFrame = Canvas(size: terminal.size)
                screen.render(into: &busyFrame)
                try terminal.present(busyFrame)
                do {
                    let vault = try screen.consumePassword { try unlock($0) }
                    return Unlocked(value: vault)
                } catch VaultError.wrongPassword {
                    failures += 1
                    screen.busy = nil
                    guard failures < Self.maximumAttempts else { return Unlocked(value: nil) }
                    let left = Self.maximumAttempts - failures
                    screen.message = ("Wrong master password — \(left) \(left == 1 ? "try" : "tries") left", .error)
                }
            }
        }
    }
}
