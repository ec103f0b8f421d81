import Interchange
import Platform
import VaultModel

/// `pwtui export`: every credential, in plaintext, for another manager or a backup.
///
/// Plaintext passwords on disk are the one thing pwtui otherwise never writes, so this asks for
/// the master password even when the agent is unlocked (whoever sits at an unlocked session
/// must not walk away with everything in one command), refuses to write to a terminal (where it
/// would sit in the scrollback), writes the file 0600 through a temporary and a rename (never
/// half an export, never readable by others for a moment), and says what it did on stderr.
public struct ExportCredentials {
    public var format: ExportFormat
    public var output: String?
    /// Replace a file already at `output`.
    public var force: Bool

    public init(format: ExportFormat, output: String?, force: Bool = false) {
        self.format = format
        self.output = output
        self.force = force
    }

    public func run(in context: CommandContext) throws {
        try PlaintextDestination.check(
            output: output, force: force, in: context,
            refusal: "an export holds every password in plaintext and is not written to a terminal")
        let vault = try context.openVault()
        var writer = ExportWriter(format: format)
        let usage = context.usageHistory.read()
        writer.lastUsed = { usage.lastUsed($0) }
        let bytes = try writer.write(vault)
        let count = vault.contents.credentials.count
        if let output {
            try bytes.withUnsafeBytes { try AtomicFile.write(bytes: $0, to: output) }
        } else {
            try context.streams.write(bytes)
        }
        let destination = output ?? "stdout"
        context.streams.say(
            "Exported \(count) credential\(count == 1 ? "" : "s") to \(destination) as \(format.rawValue). "
                + "It holds every password in plaintext: keep it off shared disks and backups, and delete it when done (shred -u)."
        )
        if writer.notesServices > 0 {
            context.streams.say(
                "\(writer.notesServices) credential\(writer.notesServices == 1 ? " has" : "s have") more than one service; "
                    + "KeePassXC's CSV has one URL column, so the others are in the notes as 'URL: …' lines.")
        }
        if writer.notesFields > 0 {
            context.streams.say(
                "\(writer.notesFields) credential\(writer.notesFields == 1 ? " has" : "s have") secret fields; "
                    + "KeePassXC's CSV has no column for them, so they are in the notes as 'name: value' lines, no longer secret there."
            )
        }
    }
}
