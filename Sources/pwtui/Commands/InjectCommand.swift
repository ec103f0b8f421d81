import ArgumentParser
import Commands

/// `pwtui inject`: a template's `{{ pwtui://… }}` filled in (`InjectSecrets`; docs/run.md).
struct InjectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inject",
        abstract: "Fill the {{ pwtui://… }} references of a template with their secrets.",
        discussion: """
            The output holds secrets in plaintext: it is written 0600 and atomically with -o, and \
            never to a terminal. Other {{ … }} are left as they are. See docs/run.md.

            Example: an .npmrc from a template kept in the repository, whose line
            //registry.npmjs.org/:_authToken={{ pwtui://registry.npmjs.org }} gets the token
              pwtui inject -i .npmrc.tpl -o ~/.npmrc
            """)

    @OptionGroup var global: GlobalOptions

    @Option(
        name: [.customShort("i"), .customLong("in-file")],
        help: ArgumentHelp("The template (default: stdin).", valueName: "file"))
    var input: String?

    @Option(
        name: [.customShort("o"), .customLong("out-file")],
        help: ArgumentHelp("The file to write (default: stdout, never a terminal).", valueName: "file"))
    var output: String?

    func run() throws {
        try InjectSecrets(input: input, output: output).run(in: global.context())
    }
}
