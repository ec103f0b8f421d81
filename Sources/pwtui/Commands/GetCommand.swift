import ArgumentParser
import Commands
import VaultModel
import ServiceMatching

struct GetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "get",
        abstract: "Print the best match's password (or another field) without opening a screen.",
        discussion: """
            Example: the password for github.com into a variable, the username alone, an item without a site
              token=$(pwtui get github.com)
              pwtui get github.com --field username
              pwtui get "Home Wi-Fi"
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(
        help: "Services to match, most specific first; or an item's title (an item without a site).",
        completion: CredentialCompletion.services)
    var services: [String] = []

    @Option(
        help:
            "A credential id, or a unique prefix of at least 4 characters (with services: that one, counted as used for them)."
    )
    var id: String?

    @Option(
        help:
            "What to print: password, username, both (username, newline, password), json, totp (the one-time code), or the name of one of the credential's fields."
    )
    var field: CredentialField = .password

    @Flag(
        name: .customLong("no-interaction"),
        help: "Never ask: without --master-password-fd, exit 75 at once instead of prompting.")
    var noInteraction = false

    func validate() throws {
        guard !services.isEmpty || id != nil else { throw ValidationError("give a service, or --id ID") }
    }

    func run() throws {
        let (query, titleFallback) = try GetCredential.query(words: services, id: id)
        var get = GetCredential(query: query, field: field, noInteraction: noInteraction)
        get.titleFallback = titleFallback
        try get.run(in: global.context())
    }
}
