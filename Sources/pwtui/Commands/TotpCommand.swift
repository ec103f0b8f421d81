import ArgumentParser
import Commands
import ServiceMatching
import VaultModel

struct TotpCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "totp",
        abstract: "Print the best match's one-time code (TOTP); on a terminal, also how long it stays valid.",
        discussion: """
            The credential needs an authenticator key: pwtui edit ID --totp (or add --totp).

            Example: the code for github.com, into the clipboard's place in a script
              code=$(pwtui totp github.com)
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(
        help:
            "Services to match, most specific first; or one credential's id (or a unique prefix of it), as show takes it.",
        completion: CredentialCompletion.services)
    var services: [String] = []

    @Option(help: "A credential id, or a unique prefix of at least 4 characters.")
    var id: String?

    @Flag(
        name: .customLong("no-interaction"),
        help: "Never ask: without --master-password-fd, exit 75 at once instead of prompting.")
    var noInteraction = false

    func validate() throws {
        guard services.isEmpty != (id == nil) else {
            throw ValidationError("give either services or --id, not both and not neither")
        }
    }

    func run() throws {
        let context = global.context()
        var get = GetCredential(
            query: try OneTimeCodeQuery.query(services: services, id: id, in: context), field: .totp,
            noInteraction: noInteraction)
        get.saysTimeLeft = true
        try get.run(in: context)
    }
}
