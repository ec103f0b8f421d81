import Platform
import VaultModel

/// `pwtui inject`: a template's `{{ pwtui://… }}` filled with the secrets they name, for a
/// configuration file that a program reads as it is (a `.npmrc`, a `docker-compose.yml`).
///
/// The result holds secrets in plaintext, so it is handled like an export: written 0600 through
/// a temporary and a rename (never half a file, never readable by others for a moment), never
/// to a terminal, where it would stay in the scrollback. Every reference is resolved before
/// anything is written: one that names nothing or several leaves the old file as it was.
public struct InjectSecrets {
    /// The template's path; nil: stdin.
    public var input: String?
    /// The file to write; nil: stdout.
    public var output: String?

    public init(input: String?, output: String?) {
        self.input = input
        self.output = output
    }

    public func run(in context: CommandContext) throws {
        if output == nil, context.streams.answerIsTerminal {
            throw CommandFailure(
                .usage,
                "the filled template holds secrets in plaintext and is not written to a terminal; "
                    + "give -o FILE, or redirect stdout to a file")
        }
        let template = try SecretTemplate(text: try templateText(context), path: input ?? "stdin")
        let secrets = try ScriptSecrets(template.references, in: context)
        let filled = try template.filled(with: secrets)
        if let output {
            let target = try Self.writtenPath(output)
            try filled.withUnsafeBytes { try AtomicFile.write(bytes: $0, to: target) }
            let count = template.references.count
            context.streams.say("Wrote \(output) (0600) with \(count) secret\(count == 1 ? "" : "s") filled in.")
        } else {
            try context.streams.write(filled)
        }
    }

    /// The file `-o PATH` writes: PATH, or, when PATH is a symbolic link (a dotfiles manager's),
    /// the regular file it leads to, written through the link as `>` would, so the link stays a
    /// link. A link to anything but a regular file (`/dev/stdout`, a FIFO, a directory) or a loop
    /// is refused (64): the output is written whole through a temporary and a rename, which
    /// only a regular file can take.
    static func writtenPath(_ output: String) throws -> String {
        guard let status = try? FileSystem.linkStatus(output), status.kind == .symbolicLink else { return output }
        guard let target = FileSystem.linkTarget(output) else {
            throw CommandFailure(
                .usage, "\(output) is a symbolic link that leads nowhere (a loop); nothing was written")
        }
        if let reached = try? FileSystem.status(target), reached.kind != .regular {
            throw CommandFailure(
                .usage,
                "\(output) is a symbolic link to \(target), which is not a regular file; inject writes a regular file (0600, whole or not at all), so nothing was written: redirect stdout there instead"
            )
        }
        return target
    }

    /// A template is no secret: read as text, from the file (a regular one) or stdin.
    private func templateText(_ context: CommandContext) throws -> String {
        if let input { return try ScriptInputFile.text(at: input, kind: "template") }
        if context.streams.inputIsTerminal {
            throw CommandFailure(.usage, "give the template with -i FILE, or on stdin")
        }
        // Bounded as a file given with -i is (`RegularFile.defaultLimit`).
        guard let bytes = try context.streams.input.readToEnd(atMost: RegularFile.defaultLimit) else {
            throw CommandFailure(
                .usage,
                "the template on stdin is larger than \(RegularFile.defaultLimit >> 20) MiB, as no template should be; "
                    + "split it, or fill it in parts")
        }
        return try ScriptInputFile.text(of: bytes, from: "stdin")
    }
}
