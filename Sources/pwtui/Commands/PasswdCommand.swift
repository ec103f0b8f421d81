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
        StandardError.say("New master password strength: " + newPassword.withUnsafeBytes { PasswordStrength(utf8: $0) }.summary)
        let previous = vault.header.generation
        let oldSalt = vault.header.salt
        let marker = try PasswordChangeMarker.begin(vaultPath: vault.path, salt: oldSalt)
        do {
            try vault.changePassword(to: newPassword, parameters: kdf?.parameters)
        } catch {
            // Left in place only when the new password is in force despite the error, for the
            // next unlock to say so.
            if !PasswordChangeMarker.vault(at: vault.path, changedFrom: oldSalt) { marker.remove() }
            throw error
        }
        global.syncIdentities(with: vault, previousGeneration: previous)
        StandardError.say("Master password changed for \(vault.path).")
        marker.remove()
        lockAgent(holding: vault.path)
    }

    /// An agent unlocked with the old keys would notice only at its next request, and until then
    /// `agent status` would call it unlocked: it is locked now, so that status tells the truth.
    private func lockAgent(holding path: String) {
        guard let agent = AgentClient.current, let status = try? agent.request(["op": "status"]),
              status.header["vault"] as? String == path, status.header["locked"] as? Bool == false,
              (try? agent.request(["op": "lock"])) != nil else { return }
        StandardError.say("The agent held the old keys and is now locked; `pwtui unlock` with the new master password.")
    }
}
