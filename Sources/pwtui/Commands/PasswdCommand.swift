import ArgumentParser
import Commands
import ServiceMatching

struct PasswdCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "passwd",
        abstract: "Change the master password: new salt, new keys, everything re-encrypted.",
        discussion: """
            A new master password rated under 40 bits is refused (exit 64) unless --allow-weak.

            Example: a new master password, typed twice, and a slower unlock
              pwtui passwd --kdf sensitive
            """)

    @OptionGroup var global: GlobalOptions

    @Option(
        name: .customLong("new-master-password-fd"),
        help: ArgumentHelp("Read the new master password's first line from this descriptor.", valueName: "n"))
    var newMasterPasswordFD: Int32?

    @Option(help: "Also change the unlock cost.")
    var kdf: KDFPreset?

    @Flag(name: .customLong("allow-weak"), help: "Keep a new master password rated under 40 bits (refused otherwise).")
    var allowWeak = false

    func run() throws {
        try ChangeMasterPassword(newPasswordFD: newMasterPasswordFD, parameters: kdf?.parameters, allowWeak: allowWeak)
            .run(in: global.context())
    }
}
