import ArgumentParser
import PwtuiKit
import ServiceMatching

struct PasswdCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "passwd",
        abstract: "Change the master password: new salt, new keys, everything re-encrypted.")

    @OptionGroup var global: GlobalOptions

    @Option(name: .customLong("new-master-password-fd"),
            help: ArgumentHelp("Read the new master password's first line from this descriptor.", valueName: "n"))
    var newMasterPasswordFD: Int32?

    @Option(help: "Also change the unlock cost.")
    var kdf: KDFPreset?

    func run() throws {
        try ChangeMasterPassword(newPasswordFD: newMasterPasswordFD, parameters: kdf?.parameters).run(in: global.session())
    }
}
