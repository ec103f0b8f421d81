import ArgumentParser
import Commands
import ServiceMatching

/// Options every command takes: which vault, which settings, and where the master password
/// comes from. Parsed here, resolved once in a `CommandContext`.
struct GlobalOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "The vault file (default: $PWTUI_VAULT, else $XDG_DATA_HOME/pwtui/vault.pwtui).", valueName: "path"))
    var vault: String?

    @Option(
        name: .long,
        help: ArgumentHelp("The settings file (default: $XDG_CONFIG_HOME/pwtui/config.toml).", valueName: "path"))
    var config: String?

    @Option(
        name: .customLong("master-password-fd"),
        help: ArgumentHelp(
            "Read the master password's first line from this file descriptor (for scripts).", valueName: "n"))
    var masterPasswordFD: Int32?

    /// An empty `--vault` is a mistake (an unset shell variable), never a request for the default.
    func validate() throws {
        if vault?.isEmpty == true { throw ValidationError("--vault needs a path; it was given an empty one") }
        if config?.isEmpty == true { throw ValidationError("--config needs a path; it was given an empty one") }
    }

    func context() -> CommandContext {
        Self.context(vault: vault, config: config, masterPasswordFD: masterPasswordFD)
    }

    /// The context of a command of this executable (also `QuickGet`'s): the one place it is made.
    /// A master password typed in it may unlock the agent too (`CommandContext.sharesUnlocks`): this is
    /// the `pwtui` that can be started as one.
    static func context(vault: String?, config: String?, masterPasswordFD: Int32?) -> CommandContext {
        let context = CommandContext(vault: vault, config: config, masterPasswordFD: masterPasswordFD)
        context.sharesUnlocks = true
        return context
    }
}
