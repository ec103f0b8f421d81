import ArgumentParser
import TUI
import VaultCrypto
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
        let access = try VaultAccess.open(global)
        let credential = try access.identity(of: id)
        if !yes {
            guard let terminal = TerminalPrompt() else {
                throw CommandFailure(.interactionRequired, "no terminal to confirm deleting \(credential.summary); pass --yes")
            }
            guard try terminal.confirm("Delete \(credential.summary)?") else {
                throw CommandFailure(.cancelled, "nothing deleted")
            }
        }
        try access.apply(.remove(id: credential.id.uuidString), secret: try SecureBytes(zeros: 0))
        StandardError.say("Deleted \(credential.summary).")
    }
}
