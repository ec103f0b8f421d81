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
            Exit codes: 0 done, 1 no credential matches, 64 usage, 65 vault corrupt or unsupported, \
            66 no vault (or not a regular file), 73 saved but not confirmed (directory fsync or \
            stdout failed after the save: the change is in force), 74 I/O error (vault unchanged), \
            75 interaction required, 77 wrong master \
            password, 130 cancelled.
            """,
        version: "0.1.0",
        subcommands: [
            StartCommand.self, InitCommand.self, PickCommand.self, GetCommand.self, AddCommand.self, ListCommand.self,
            EditCommand.self, RemoveCommand.self, SuggestCommand.self, EquivalentsCommand.self, PasswdCommand.self,
            ConfigureCommand.self, UnlockCommand.self, AgentCommand.self, GitCredentialCommand.self, DemoCommand.self,
        ])
}
