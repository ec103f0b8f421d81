import ArgumentParser
import Commands
import ServiceMatching

struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List credentials (identities only: never a secret), ranked for SERVICE(s) if given.",
        discussion: """
            Answers from the identity store when it mirrors the vault file (no password, no unlock), \
            else from an unlocked agent, else unlocks the vault. JSON has "created" and "modified" \
            only when the vault was unlocked: they are not kept outside it.

            Example: what pwtui knows for github.com, best first
              pwtui list github.com
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "Only credentials matching these services, best first.", completion: CredentialCompletion.services)
    var services: [String] = []

    @Option(help: "table or json.")
    var format: ListCredentials.Format = .table

    @Flag(help: "With services: also list the credentials that do not match (match: null).")
    var all = false

    func run() throws {
        try ListCredentials(services: services, format: format, all: all).run(in: global.context())
    }
}
