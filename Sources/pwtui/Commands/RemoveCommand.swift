import ArgumentParser
import TUI
import VaultModel

struct RemoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rm", abstract: "Delete a credential (asks first unless --yes).")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The credential's id, or a unique prefix of at least 4 characters.")
    var id: String

    @Flag(help: "Do not ask for confirmation.")
    var yes = false

    func run() throws {
        let vault = try global.openVault()
        let credential = try vault.credential(id: id)
        let description = "\(credential.displayTitle) (\(credential.username), \(credential.services.map(\.text).joined(separator: " ")))"
        if !yes {
            guard let terminal = TerminalPrompt() else {
                throw CommandFailure(.interactionRequired, "no terminal to confirm deleting \(description); pass --yes")
            }
            guard try terminal.confirm("Delete \(description)?") else {
                throw CommandFailure(.cancelled, "nothing deleted")
            }
        }
        try vault.remove(credential.id)
        try global.save(vault)
        StandardError.say("Deleted \(description).")
    }
}
