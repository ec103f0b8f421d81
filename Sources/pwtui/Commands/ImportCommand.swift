import ArgumentParser
import Interchange
import Commands

extension ImportFormat: ExpressibleByArgument {}
extension ImportPlan.ConflictPolicy: ExpressibleByArgument {}

struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Bring in the passwords of another manager's export, in one save.",
        discussion: """
            The format is recognised from the file (its header or structure) unless --format names it:
              \(ImportFormat.allCases.map { "\($0.rawValue): \($0.publisher)" }.joined(separator: "\n  "))
            An entry with the same service, username and password as a credential already there is skipped (or \
            adds the TOTP key, sites and fields it brings); the same service and username with another password is \
            a conflict (--on-conflict); one account twice in the file keeps both passwords, the newer current. An \
            entry without a URL becomes an item without a site; empty entries are listed as skipped. Nothing \
            changes when an entry cannot be imported, unless --skip-invalid. See docs/import.md.
            Examples:
              pwtui import ~/Downloads/Chrome\\ Passwords.csv --dry-run
              pwtui import bitwarden_export.json --on-conflict update
              pwtui import ~/.password-store
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The export file, or a pass / gopass store directory.")
    var path: String

    @Option(help: "The export's format (recognised when omitted).")
    var format: ImportFormat?

    @Flag(help: "Print what would be added, updated and skipped, and why; change nothing.")
    var dryRun = false

    @Option(help: "An entry for an account already there with another password: skip, keep-both or update.")
    var onConflict: ImportPlan.ConflictPolicy = .skip

    @Flag(help: "Import the entries that can be, and list the others.")
    var skipInvalid = false

    func run() throws {
        try ImportCredentials(path: path, format: format, dryRun: dryRun, policy: onConflict, skipInvalid: skipInvalid)
            .run(in: global.context())
    }
}
