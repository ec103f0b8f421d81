import FoundationEssentials
import Platform
import TUI
import UnicodeText
import VaultCrypto
import VaultModel

/// `pwtui history`: a credential's previous passwords, newest first, numbered as
/// `edit --restore N` takes them, with the time each was replaced; dots unless `reveal`. An
/// unlocked agent renders them; otherwise the vault is unlocked here.
public struct ShowHistory {
    public var reference: String
    public var reveal: Bool

    public init(reference: String, reveal: Bool) {
        self.reference = reference
        self.reveal = reveal
    }

    public func run(in session: Session) throws {
        try StandardOutput.write(try render(in: session))
    }

    /// What `run` writes on stdout (nothing when there is no history), in protected memory; the
    /// count and the hint go to stderr.
    public func render(in session: Session) throws -> SecureBytes {
        let access = try VaultAccess.open(session)
        let identity = try CredentialReference(reference).resolve(in: access, session: session)
        let command = Invocation.current(session.environment).command
        let output = try access.render(CredentialView(kind: .history, reveal: reveal, command: command), of: identity)
        // One line per previous password: counting newlines reads no secret out.
        let count = output.withUnsafeBytes { $0.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) } }
        let name = PrintableText.escaped("\(identity.displayTitle) (\(identity.username))")
        if count == 0 {
            StandardError.say("\(name) has no previous passwords.")
        } else {
            StandardError.say("\(name): \(count) previous password\(count == 1 ? "" : "s"), newest first; "
                + "make one current again with: \(command) edit \(identity.id.uuidString.lowercased().prefix(8)) --restore N")
        }
        return output
    }
}
