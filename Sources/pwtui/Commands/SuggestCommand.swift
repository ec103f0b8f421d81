import ArgumentParser
import Commands
import ServiceMatching

/// `pwtui suggest SERVICE...`: the ranked identities from the identity store, without unlocking
/// and without ever asking for a password (AutoFill's QuickType suggestions). Never a secret.
struct SuggestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "suggest",
        abstract: "Rank the stored identities for SERVICE(s) without unlocking (never a secret).",
        discussion: """
            Example: the accounts a login form at github.com could offer, as JSON
              pwtui suggest github.com --format json
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "Services to rank for, most specific first.", completion: CredentialCompletion.services)
    var services: [String]

    @Option(help: "table or json.")
    var format: ListCredentials.Format = .table

    func validate() throws {
        guard !services.isEmpty else { throw ValidationError("name at least one service") }
    }

    func run() throws {
        try ListCredentials(services: services, format: format, all: false).suggest(in: global.context())
    }
}
