import FoundationEssentials
import VaultCrypto
import VaultModel

/// `pwtui show`: one credential whole — what the picker's detail screen shows — on stdout: title,
/// id, username, services, created / modified / last used, notes, how many previous passwords.
/// The password is eight dots unless `reveal` (`CredentialViewRendering`). An unlocked agent
/// renders it; otherwise the vault is unlocked here.
public struct ShowCredential {
    /// An id (or a unique prefix), a service or a title (`CredentialReference`).
    public var reference: String
    public var reveal: Bool
    public var format: CredentialView.Format

    public init(reference: String, reveal: Bool, format: CredentialView.Format) {
        self.reference = reference
        self.reveal = reveal
        self.format = format
    }

    public func run(in context: CommandContext) throws {
        let access = try VaultAccess.open(context)
        let identity = try CredentialReference(reference).resolve(in: access, context: context)
        let view = CredentialView(
            kind: .details, reveal: reveal, format: format,
            command: Invocation.current(context.environment).command)
        try context.streams.write(try access.render(view, of: identity))
    }
}
