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
    static func field(for requested: CredentialField, in session: Session) -> CredentialField {
        guard session.streams.answerIsTerminal, requested != .totp else { return requested }
        return .password
    }

    static func deliver(_ credential: Credential, from vault: Vault, field: CredentialField, clipboardTimeout: Int,
                        in session: Session) throws {
        let handed = Self.field(for: field, in: session)
        let rendered = try handed.render(credential, from: vault)
        try deliver(rendered, handed, of: "\(credential.displayTitle) (\(credential.username))", clipboardTimeout: clipboardTimeout,
                    in: session)
    }

    /// `rendered`: `field` (as `field(for:)` chose it) as `CredentialField.render` makes it (the
    /// agent sends it so); `description` names the credential in the confirmation.
    static func deliver(_ rendered: borrowing SecureBytes, _ field: CredentialField, of description: String, clipboardTimeout: Int,
                        in session: Session) throws {
        if !session.streams.answerIsTerminal {
            try session.streams.write(rendered)
            return
        }
        try copy(rendered, field, of: description, clipboardTimeout: clipboardTimeout, in: session)
    }

    /// The rendered password or code to the clipboard, whatever stdout is (`pwtui copy`), and the
    /// confirmation on stderr, naming what was copied.
    static func copy(_ rendered: borrowing SecureBytes, _ field: CredentialField = .password, of description: String, clipboardTimeout: Int,
                     in session: Session) throws {
        let copied = try rendered.withUnsafeBytes { try Clipboard.copy(CredentialField.value(ofRendered: $0), clearAfter: clipboardTimeout,
                                                                    environment: session.environment, streams: session.streams) }
        let what = field == .totp ? "one-time code" : "password"
        session.streams.say("Copied the \(what) of \(description) to the clipboard; \(copied.clearing(after: clipboardTimeout)).")
    }
}
