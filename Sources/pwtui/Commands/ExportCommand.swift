import ArgumentParser
import Interchange
import Commands

extension ExportFormat: ExpressibleByArgument {}

struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write every credential, passwords in plaintext, for another manager or a backup.",
        discussion: """
            Always asks for the master password, even with the agent unlocked. Never writes to a terminal.
            Formats: bitwarden-json (everything but the rank), csv (pwtui's own; no history), \
            keepassxc-csv (one URL column: other services go in the notes). See docs/import.md.
            Example:
              pwtui export --format bitwarden-json --output ~/vault-export.json
            """)

    @OptionGroup var global: GlobalOptions

    @Option(help: "bitwarden-json, csv or keepassxc-csv.")
    var format: ExportFormat

    @Option(help: "The file to write (0600, atomically); stdout when omitted, unless it is a terminal.")
    var output: String?

    @Flag(help: "Replace a file already at --output.")
    var force = false

    func run() throws {
        try ExportCredentials(format: format, output: output, force: force).run(in: global.context())
    }
}
