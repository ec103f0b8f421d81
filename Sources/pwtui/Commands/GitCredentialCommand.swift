import ArgumentParser
import Commands
import ServiceMatching

/// `git config credential.helper pwtui` (with `git-credential-pwtui` on PATH, which `make install`
/// puts there) or `credential.helper '!pwtui git-credential'`: git's credential-helper protocol
/// (`GitCredentialHelper`; docs/git.md).
struct GitCredentialCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "git-credential", abstract: "git's credential helper: get, store, erase.",
        discussion: """
            Set up with `git config --global credential.helper '!pwtui git-credential'`; see docs/git.md.

            Example: what git runs (git writes the request on stdin)
              printf 'protocol=https\\nhost=github.com\\n\\n' | pwtui git-credential get
            """)

    @OptionGroup var global: GlobalOptions

    /// Text, not an enum: `man gitcredentials` asks a helper to ignore, silently, an operation
    /// it does not know (a newer git's), so that new operations can be added.
    @Argument(help: "What git asks: get, store or erase (anything else is ignored).")
    var operation: String

    func run() throws {
        try GitCredentialHelper(context: global.context()).run(operation: operation)
    }
}
