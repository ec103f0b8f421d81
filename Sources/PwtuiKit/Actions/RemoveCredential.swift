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

    public func run(in session: Session) throws {
        let access = try VaultAccess.open(session)
        let credential = try CredentialReference(id).resolve(in: access, session: session)
        if !confirmed {
            guard let terminal = session.terminalPrompt() else {
                throw CommandFailure(.interactionRequired, "no terminal to confirm deleting \(credential.summary); pass --yes")
            }
            guard try terminal.confirm("Delete \(credential.summary)?") else {
                throw CommandFailure(.cancelled, "nothing deleted")
            }
        }
        try access.apply(.remove(id: credential.id.uuidString), secret: try SecureBytes(zeros: 0))
        session.streams.say("Deleted \(credential.summary).")
    }
}
