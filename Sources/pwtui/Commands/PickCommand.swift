import ArgumentParser
import Commands
import VaultModel
import ServiceMatching

struct PickCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pick",
        abstract: "Choose a credential in a list ranked for SERVICE(s); the choice goes to stdout or the clipboard.",
        discussion: """
            Drawn on the terminal (/dev/tty), so `x=$(pwtui pick github.com)` captures only the answer. \
            With stdout a terminal, the password is copied to the clipboard instead. Esc cancels (exit 130).

            Example: choose among the github.com credentials, the username to a pipe
              pwtui pick github.com --output username | wl-copy
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(
        help: "Services to rank for, most specific first (none: list everything).",
        completion: CredentialCompletion.services)
    var services: [String] = []

    @Option(
        help:
            "What a pipe receives: password, username, both (username, newline, password), json, or totp (the one-time code)."
    )
    var output: CredentialField = .password

    func run() throws {
        try Picker.pick(services, output: output, in: global.context())
    }
}
