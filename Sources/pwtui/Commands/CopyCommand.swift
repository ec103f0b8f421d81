import ArgumentParser
import Commands
import ServiceMatching
import VaultModel

struct CopyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "copy",
        abstract: "Copy the best match's password to the clipboard, cleared again after clipboard_timeout; no screen.",
        discussion: """
            What the picker does with a choice, without the picker. `get` prints instead.
            Example: the password for github.com to the clipboard
              pwtui copy github.com
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "Services to match, most specific first.", completion: CredentialCompletion.services)
    var services: [String]

    func validate() throws {
        guard !services.isEmpty else { throw ValidationError("give the service to copy the password of") }
    }

    func run() throws {
        let query = CredentialQuery(services: try services.map { try ServiceIdentifier($0) })
        try CopyPassword(query: query).run(in: global.context())
    }
}
