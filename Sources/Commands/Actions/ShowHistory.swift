import FoundationEssentials
import Platform
import TUI
import UnicodeText
import VaultCrypto
import VaultModel

/// `pwtui history`: a credential's previous passwords (then its secret fields' earlier values), newest first, numbered as
/// `edit --restore N` takes them, with the time each was replaced; dots unless `reveal`. An
/// unlocked agent renders them; otherwise the vault is unlocked here.
public struct ShowHistory {
    public var reference: String
    public var reveal: Bool

    public init(reference: String, reveal: Bool) {
        self.reference = reference
        self.reveal = reveal
    }

    /// The history on stdout (nothing when there is none), from protected memory; the count and
    /// the hint go to stderr.
    public func run(in context: CommandContext) throws {
        try context.streams.write(try render(in: context))
    }

    private func render(in context: CommandContext) throws -> SecureBytes {
        let access = try VaultAccess.open(context)
        let identity = try CredentialReference(reference).resolve(in: access, context: context)
        let command = Invocation.current(context.environment).command
        let output = try access.render(CredentialView(kind: .history, reveal: reveal, command: command), of: identity)
        // One line per previous value; a password's starts with its number, a field's with
        // `field `: counting line starts reads no secret out.
        let (count, fieldCount) = output.withUnsafeBytes { bytes in
            var counts = (0, 0)
            var lineStart = true
            for byte in bytes {
                if lineStart { if byte >= 0x30, byte <= 0x39 { counts.0 += 1 } else { counts.1 += 1 } }
                lineStart = byte == 0x0A
            }
            return counts
        }
        let name = PrintableText.escaped(identity.titleAndUsername)
        if fieldCount > 0 {
            context.streams.say(
                "\(name): \(fieldCount) earlier value\(fieldCount == 1 ? "" : "s") of secret fields (lines 'field NAME N'), newest first."
            )
        }
        if count == 0 {
            context.streams.say("\(name) has no previous passwords.")
        } else {
            context.streams.say(
                "\(name): \(count) previous password\(count == 1 ? "" : "s"), newest first; "
                    + "make one current again with: \(command) edit \(identity.id.uuidString.lowercased().prefix(8)) --restore N"
            )
        }
        return output
    }
}
