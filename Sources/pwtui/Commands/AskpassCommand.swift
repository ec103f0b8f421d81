import ArgumentParser
import Commands

/// `SSH_ASKPASS=pwtui-askpass` (the link `make install` puts beside pwtui), `SUDO_ASKPASS`,
/// `GIT_ASKPASS`, or `pwtui askpass PROMPT`: the answer to git's, ssh's and sudo's password
/// prompts (`Askpass`; docs/askpass.md).
struct AskpassCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "askpass",
        abstract: "Answer git's, ssh's and sudo's password prompts (SSH_ASKPASS, SUDO_ASKPASS, GIT_ASKPASS).",
        discussion: """
            Set SSH_ASKPASS or GIT_ASKPASS to pwtui-askpass (installed by make install), and SUDO_ASKPASS to \
            its path (sudo runs it by path: SUDO_ASKPASS="$(command -v pwtui-askpass)"); \
            see docs/askpass.md for the prompts it reads and which credential answers each. Nothing is \
            printed for an unknown prompt (exit 64), no match (1), or a locked vault without a terminal (75).

            Example: what ssh runs
              pwtui askpass "alice@build.example's password: "
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The prompt the program printed, as its only argument.")
    var prompt: String

    func run() throws {
        try Askpass(prompt: prompt).run(in: global.context())
    }
}
