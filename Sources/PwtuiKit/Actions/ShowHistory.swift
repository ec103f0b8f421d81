import Foundation
import Platform
import TUI
import VaultCrypto
import VaultModel

/// `pwtui history`: a credential's previous passwords, newest first, numbered as
/// `edit --restore N` takes them, with the time each was replaced; dots unless `reveal` (then
/// written from protected memory, as `show --reveal`). The vault is unlocked here, as for `show`.
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
    /// heading and the hint go to stderr.
    public func render(in session: Session) throws -> SecureBytes {
        let vault = try session.openVault()
        let credential = try ShowCredential.resolve(reference, in: vault, session: session)
        let name = PrintableText.forTerminal("\(credential.displayTitle) (\(credential.username))")
        let previous = credential.previousSecrets
        guard !previous.isEmpty else {
            StandardError.say("\(name) has no previous passwords.")
            return try SecureBytes(zeros: 0)
        }
        var output = try SecureBytes(capacity: 64 * previous.count)
        for (index, entry) in previous.enumerated() {
            try ShowCredential.append("\(index + 1)  \(entry.replaced.minuteText)  ", to: &output)
            if reveal {
                try vault.withSecret(entry.secret) { try output.append(contentsOf: $0) }
            } else {
                try ShowCredential.append(CredentialDetailScreen.mask, to: &output)
            }
            try ShowCredential.append("\n", to: &output)
        }
        let id = credential.id.uuidString.lowercased().prefix(8)
        StandardError.say("\(name): \(previous.count) previous password\(previous.count == 1 ? "" : "s"), newest first; "
            + "make one current again with: \(Invocation.current(session.environment).command) edit \(id) --restore N")
        return output
    }
}
