import ArgumentParser
import Commands

import VaultModel

extension CredentialView.Format: ExpressibleByArgument {}

struct ShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show one credential whole: username, services, times, notes; the password masked unless --reveal.",
        discussion: """
            The picker shows the same on its detail screen (→ on the list).
            Example: everything about the github.com credential, then as JSON with the password
              pwtui show github.com
              pwtui show 3f2a --reveal --format json
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(
        help: "The credential: its id (or a unique prefix of at least 4 characters), a service or a title.",
        completion: CredentialCompletion.credentials)
    var id: String

    @Flag(help: "Print the password instead of dots.")
    var reveal = false

    @Option(help: "text or json (the password null unless --reveal).")
    var format: CredentialView.Format = .text

    func run() throws {
        try ShowCredential(reference: id, reveal: reveal, format: format).run(in: global.context())
    }
}
