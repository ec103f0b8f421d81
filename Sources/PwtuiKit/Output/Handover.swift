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
    /// What goes out: the requested field to a pipe; the password when stdout is a terminal
    /// (it goes to the clipboard).
    static func field(for requested: CredentialField) -> CredentialField {
        FileDescriptor.standardOutput.isTerminal ? .password : requested
    }

    static func deliver(_ credential: Credential, from vault: Vault, field: CredentialField, clipboardTimeout: Int,
                        environment: Environment) throws {
        let rendered = try Self.field(for: field).render(credential, from: vault)
        try deliver(rendered, of: "\(credential.displayTitle) (\(credential.username))", clipboardTimeout: clipboardTimeout,
                    environment: environment)
    }

    /// `rendered`: the field `field(for:)` chose, as `CredentialField.render` makes it (the agent
    /// sends it so); `description` names the credential in the confirmation.
    static func deliver(_ rendered: borrowing SecureBytes, of description: String, clipboardTimeout: Int,
                        environment: Environment) throws {
        if !FileDescriptor.standardOutput.isTerminal {
            try StandardOutput.write(rendered)
            return
        }
        try copy(rendered, of: description, clipboardTimeout: clipboardTimeout, environment: environment)
    }

    /// The rendered password to the clipboard, whatever stdout is (`pwtui copy`), and the
    /// confirmation on stderr.
    static func copy(_ rendered: borrowing SecureBytes, of description: String, clipboardTimeout: Int,
                     environment: Environment) throws {
        let copied = try rendered.withUnsafeBytes { try Clipboard.copy(CredentialField.value(ofRendered: $0), clearAfter: clipboardTimeout,
                                                                    environment: environment) }
        StandardError.say("Copied the password of \(description) to the clipboard; \(copied.clearing(after: clipboardTimeout)).")
    }
}
