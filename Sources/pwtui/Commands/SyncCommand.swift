import ArgumentParser
import Commands

/// `pwtui sync` and `pwtui sync setup`: see `SyncVault` and `SetUpSync`.
struct SyncCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync", abstract: "Sync the vault through its git repository: commit, pull and merge, push.",
        discussion: """
            The vault's folder must be a git repository with a remote. 'pwtui sync setup' (once per clone) \
            makes git merge the vault with 'pwtui merge' (.gitattributes and the driver in the repository's config).

            Example: once per machine, then whenever you like
              pwtui sync setup && pwtui sync
            """,
        subcommands: [Now.self, Setup.self], defaultSubcommand: Now.self)

    struct Now: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "now", abstract: "Commit, pull (merging the vault), push (the default).")
        @OptionGroup var global: GlobalOptions

        func run() throws {
            try SyncVault().run(in: global.context())
        }
    }

    struct Setup: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "setup", abstract: "Make git merge the vault with pwtui merge.")
        @OptionGroup var global: GlobalOptions

        func run() throws {
            try SetUpSync().run(in: global.context())
        }
    }
}
