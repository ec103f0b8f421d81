import ArgumentParser
import Commands
import ServiceMatching

/// `pwtui` alone: the picker over every credential, or, when there is no vault yet, the
/// first-run wizard followed by the (empty) picker.
struct StartCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "start", abstract: "What plain `pwtui` runs.", shouldDisplay: false)

    @OptionGroup var global: GlobalOptions

    func run() throws {
        try Configuration.start(in: global.context())
    }
}

/// `pwtui configure`: the configuration screen. Without a vault it is the first-run wizard; with
/// one it changes the unlock cost (re-encrypting, after the master password), the theme and the
/// clipboard timeout.
struct ConfigureCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "configure",
        abstract: "Change the unlock cost, theme, clipboard timeout and agent use (or set up a first vault).",
        discussion: """
            Example: the settings of the vault in another place; then make it the one every \
            command opens (written to the settings), and back to the default place
              pwtui configure --vault ~/sync/work.pwtui
              pwtui configure --use-vault ~/sync/work.pwtui
              pwtui configure --use-vault default
            """)

    @OptionGroup var global: GlobalOptions

    @Option(
        name: .customLong("use-vault"),
        help: ArgumentHelp(
            "Name this vault file in the settings, so later commands open it ('default': the XDG place); no screen.",
            valueName: "path"))
    var useVault: String?

    func run() throws {
        if let useVault {
            try Configuration.nameVault(useVault, in: global.context())
        } else {
            try Configuration.configure(in: global.context())
        }
    }
}
