import ArgumentParser
import Commands
import ServiceMatching

struct GenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Print a new password: Safari's form, a site's passwordrules, or a passphrase.",
        discussion: """
            Without options: three groups of six (hVcmbz-8tepqi-Kxgrno). With --for, the rules the \
            site publishes (Apple's password-manager-resources) apply; --rules gives them directly.

            Example: a password of at most 16 letters and digits, and a passphrase
              pwtui generate --rules "maxlength: 16; allowed: upper, lower, digit"
              pwtui generate --words 6
            """)

    @Option(
        help: ArgumentHelp(
            "passwordrules the password must meet (\"minlength: 8; required: digit; ...\").", valueName: "rules"))
    var rules: String?

    @Option(
        name: .customLong("for"),
        help: ArgumentHelp(
            "The site it is for (a domain or URL): its published rules apply.",
            valueName: "service"))
    var site: String?

    @Option(help: "An exact length.")
    var length: Int?

    @Option(help: "A passphrase of this many words (the EFF's list) instead.")
    var words: Int?

    func validate() throws {
        guard words == nil || (rules == nil && length == nil) else {
            throw ValidationError("--words makes a passphrase: not with --rules or --length")
        }
    }

    func run() throws {
        try GeneratePassword(
            rules: rules, hosts: try site.map { [try ServiceIdentifier($0).host] } ?? [], length: length, words: words
        )
        .run(in: CommandContext())
    }
}
