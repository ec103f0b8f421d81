import Foundation
import VaultCrypto
import VaultModel

/// The picker as a whole (AutoFill's extension: authenticate, list, complete or cancel): the
/// master-password screen until the vault opens (three tries), then the credential list until a
/// credential is chosen or the request is cancelled. It runs on any `Terminal`, so tests drive
/// the real flow through `GridTerminal`.
public struct PickerFlow {
    public enum Outcome {
        case chosen(Vault, Credential)
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

    /// `unlock` opens the vault (throwing `VaultError.wrongPassword` for a wrong password);
    /// `rank` orders its credentials for the request; `requestLabel` names the request in
    /// headings (nil: everything is listed).
    public init(terminal: Terminal, vaultPath: String, passwordHint: String? = nil, requestLabel: String?,
                unlockingMessage: String = "Unlocking…",
                unlock: @escaping (borrowing SecureBytes) throws -> Vault, rank: @escaping (Vault) -> [RankedCredential]) {
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
        let vault: Vault
        if let unlocked {
            vault = unlocked
        } else {
            guard let result = try authenticate() else { return .cancelled }
            guard let opened = result.value else { return .wrongPassword(attempts: Self.maximumAttempts) }
            vault = opened
        }
        var list = CredentialListScreen(ranked: rank(vault), requestLabel: requestLabel)
        while true {
            var canvas = Canvas(size: terminal.size)
            list.render(into: &canvas)
            try terminal.present(canvas)
            let pageSize = max(terminal.size.rows - 5, 1)
            switch list.handle(try terminal.nextEvent(), pageSize: pageSize) {
            case .stay: continue
            case .cancelled: return .cancelled
            case .chosen(let id):
                guard let credential = vault.contents.credential(withID: id) else { continue }
                return .chosen(vault, credential)
            }
        }
    }

    /// A box so that "cancelled" (nil) and "out of tries" (nil value) differ.
    private struct Unlocked { let value: Vault? }

    private func authenticate() throws -> Unlocked? {
        let screen = try MasterPasswordScreen(vaultPath: vaultPath, hint: passwordHint)
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
