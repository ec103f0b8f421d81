import ArgumentParser
import ServiceMatching

/// The root command: subcommands only; parsing and wiring, no logic of its own.
struct Pwtui: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pwtui",
        abstract: "A terminal password manager: the right credential, fast, and only to whoever asked.",
        // What a new user runs first comes first: plain `pwtui`, then `init`.
        usage: """
            pwtui                  the picker over every credential (no vault yet: the setup wizard)
            pwtui init             create a vault from the command line instead
            pwtui <command> ...    the commands below
            """,
        discussion: """
            Examples:
              pwtui pick github.com              choose: to the clipboard, or a pipe
              pwtui get github.com --field both  username and password, for a script
              pwtui add example.org --username me --generate
              pwtui help <command>               its options and an example

            Shell completion: `pwtui --generate-completion-script bash` (or zsh, fish) prints a \
            script for your shell; `make install` installs all three.

            Exit codes: 0 done, 1 no credential matches, 3 audit found a password to change, 64 usage, 65 vault corrupt or unsupported, \
            66 no vault (or not a regular file), 73 saved but not confirmed (directory fsync or \
            stdout failed after the save: the change is in force), 74 I/O error (vault unchanged), \
            75 interaction required, 77 wrong master \
            password, 130 cancelled. `pwtui run` ends with its command's status (127: no such command).
            """,
        version: "0.1.0",
        // `start` is what plain `pwtui` runs: hidden, and in no group. The groups are what a new
        // user looks for in turn: set the vault up (`init` first, as in the usage above), use it,
        // change what is in it, and the helpers that let other programs in (ManualPageTests
        // checks that every command is in exactly one group).
        subcommands: [StartCommand.self],
        groupedSubcommands: [
            CommandGroup(
                name: "Set up",
                subcommands: [
                    InitCommand.self, PasswdCommand.self, ConfigureCommand.self, DemoCommand.self,
                ]),
            CommandGroup(
                name: "Use",
                subcommands: [
                    PickCommand.self, GetCommand.self, TotpCommand.self, CopyCommand.self, ShowCommand.self,
                    ListCommand.self,
                    SuggestCommand.self,
                ]),
            CommandGroup(
                name: "Manage",
                subcommands: [
                    AddCommand.self, EditCommand.self, HistoryCommand.self, RemoveCommand.self, GenerateCommand.self,
                    EquivalentsCommand.self, ImportCommand.self, ExportCommand.self, AuditCommand.self,
                ]),
            CommandGroup(
                name: "Helpers",
                subcommands: [
                    UnlockCommand.self, AgentCommand.self, GitCredentialCommand.self, DockerCredentialCommand.self,
                    AskpassCommand.self, RunCommand.self, InjectCommand.self, SshCommand.self,
                    SecretServiceCommand.self,
                ]),
            CommandGroup(
                name: "Sync",
                subcommands: [
                    SyncCommand.self, MergeCommand.self, DoctorCommand.self,
                ]),
        ])
}
