import FoundationEssentials
import Platform
import ServiceMatching
import TUI
import VaultCrypto
import VaultModel

/// AutoFill's "complete request": the chosen credential goes to whoever asked. A pipe gets the
/// field on stdout; a person at a terminal gets the password on the clipboard, cleared again
/// after a while, and a one-line confirmation on stderr. The secret never reaches the screen.
enum Handover {
    /// What goes out: the requested field to a pipe; to a terminal (it goes to the clipboard)
    /// the password, or the one-time code when that was asked for (^T).
    static func field(for requested: CredentialField, in context: CommandContext) -> CredentialField {
        guard context.streams.answerIsTerminal, requested != .totp else { return requested }
        return .password
    }

    static func deliver(
        _ credential: Credential, from vault: Vault, field: CredentialField, clipboardTimeout: Int,
        in context: CommandContext
    ) throws {
        let handed = Self.field(for: field, in: context)
        let rendered = try handed.render(credential, from: vault)
        try deliver(
            rendered, handed, of: credential.titleAndUsername,
            clipboardTimeout: clipboardTimeout,
            in: context)
    }

    /// `rendered`: `field` (as `field(for:)` chose it) as `CredentialField.render` makes it (the
    /// agent sends it so); `description` names the credential in the confirmation.
    static func deliver(
        _ rendered: borrowing SecureBytes, _ field: CredentialField, of description: String, clipboardTimeout: Int,
        in context: CommandContext
    ) throws {
        if !context.streams.answerIsTerminal {
            try context.streams.write(rendered)
            return
        }
        try copy(rendered, field, of: description, clipboardTimeout: clipboardTimeout, in: context)
    }

    /// The rendered password or code to the clipboard, whatever stdout is (`pwtui copy`), and the
    /// confirmation on stderr, naming what was copied.
    static func copy(
        _ rendered: borrowing SecureBytes, _ field: CredentialField = .password, of description: String,
        clipboardTimeout: Int,
        in context: CommandContext
    ) throws {
        let copied = try rendered.withUnsafeBytes {
            try Clipboard.copy(
                CredentialField.value(ofRendered: $0), clearAfter: clipboardTimeout, in: context)
        }
        let what = field == .totp ? "one-time code" : "password"
        context.streams.say(
            "Copied the \(what) of \(description) to the clipboard; \(copied.clearing(after: clipboardTimeout)).")
    }
}
