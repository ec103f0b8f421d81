import ArgumentParser
import VaultModel

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
        let vault = try global.openVault()
        let newPassword = try newMasterPasswordFD.map { try SecretReader.firstLine(of: $0, what: "--new-master-password-fd") }
            ?? SecretReader.typedTwice(label: "master password",
                                      otherwise: "pass it on a descriptor: --new-master-password-fd N")
        guard !newPassword.isEmpty else { throw CommandFailure(.usage, "the master password must not be empty") }
        let previous = vault.header.generation
        try vault.changePassword(to: newPassword, parameters: kdf?.parameters)
        global.syncIdentities(with: vault, previousGeneration: previous)
        StandardError.say("Master password changed for \(vault.path).")
    }
}
