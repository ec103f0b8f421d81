import ArgumentParser
import Commands
import ServiceMatching

struct RemoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rm", abstract: "Delete a credential (asks first unless --yes).",
        discussion: """
            Example: delete the credential whose id starts with 3f2a, without asking
              pwtui rm 3f2a --yes
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(
        help: "The credential: its id (or a unique prefix of at least 4 characters), a service or a title.",
        completion: CredentialCompletion.credentials)
    var id: String

    @Flag(help: "Do not ask for confirmation.")
    var yes = false

    func run() throws {
        try RemoveCredential(id: id, confirmed: yes).run(in: global.context())
    }
}
