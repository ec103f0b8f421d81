import ServiceMatching
import TUI
import VaultCrypto
import VaultModel

/// `pwtui rm`: deletes one credential, after a yes on the terminal unless `confirmed`.
public struct RemoveCredential {
    public var id: String
    public var confirmed: Bool

    public init(id: String, confirmed: Bool) {
        self.id = id
        self.confirmed = confirmed
    }

    public func run(in context: CommandContext) throws {
        let access = try VaultAccess.open(context)
        let credential = try CredentialReference(id).resolve(in: access, context: context)
        if !confirmed {
            guard let terminal = context.terminalPrompt() else {
                throw CommandFailure(
                    .interactionRequired, "no terminal to confirm deleting \(credential.summary); pass --yes")
            }
            guard try terminal.confirm("Delete \(credential.summary)?") else {
                throw CommandFailure(.cancelled, "nothing deleted")
            }
        }
        try access.apply(.remove(id: credential.id.uuidString), secret: try SecureBytes(zeros: 0))
        context.streams.say("Deleted \(credential.summary).")
    }
}
