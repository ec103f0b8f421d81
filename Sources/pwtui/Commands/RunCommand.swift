import ArgumentParser
import Commands
import Platform

/// `pwtui run -- CMD ARGS…`: secrets for a script, from references in its environment
/// (`RunWithSecrets`; docs/run.md).
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Start a command with secrets in its environment, masked in its output.",
        discussion: """
            Every environment value that is a reference, pwtui://SERVICE-OR-TITLE[/FIELD], is replaced \
            by the secret it names (FIELD: password, the default, username, totp or a field's name). \
            The command's exit status is pwtui's. See docs/run.md.

            Example: a token for a deploy script, never in a file
              pwtui run --env GITHUB_TOKEN=pwtui://github.com -- ./deploy.sh
            Example: the references in a .env file (API_KEY=pwtui://api.example/key)
              pwtui run --env-file .env -- npm start
            """)

    @OptionGroup var global: GlobalOptions

    @Option(
        name: .customLong("env-file"),
        help: ArgumentHelp("Read NAME=VALUE lines from FILE (repeatable; later ones win).", valueName: "file"))
    var envFiles: [String] = []

    @Option(
        name: .customLong("env"),
        help: ArgumentHelp(
            "Set NAME to VALUE, a reference or plain text (repeatable; wins over files).", valueName: "name=value"))
    var assignments: [String] = []

    @Flag(
        name: .customLong("no-masking"),
        help: "Do not conceal the secrets in the command's output (it gets pwtui's own stdout and stderr).")
    var noMasking = false

    @Argument(parsing: .postTerminator, help: "The command and its arguments, after --.")
    var command: [String] = []

    func validate() throws {
        guard !command.isEmpty else { throw ValidationError("give the command after --: pwtui run -- CMD ARGS…") }
    }

    func run() throws {
        var run = RunWithSecrets(command: command)
        run.envFiles = envFiles
        run.assignments = assignments
        run.masking = !noMasking
        run.forwardsSignals = true
        ForwardedSignals.end(like: try run.run(in: global.context()))
    }
}
