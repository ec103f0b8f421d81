import ArgumentParser
import Commands

struct HistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "List a credential's previous passwords, newest first, with when each was replaced.",
        discussion: """
            The numbers are the ones `edit --restore N` takes.
            Example: the previous passwords of github.com, then the last one made current again
              pwtui history github.com
              pwtui edit github.com --restore 1
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(
        help: "The credential: its id (or a unique prefix of at least 4 characters), a service or a title.",
        completion: CredentialCompletion.credentials)
    var id: String

    @Flag(help: "Print the passwords instead of dots.")
    var reveal = false

    func run() throws {
        try ShowHistory(reference: id, reveal: reveal).run(in: global.context())
    }
}
