import ServiceMatching
import VaultModel

/// What the agent answers. A refusal carries the exit code the client's command ends with, so
/// `get` through the agent fails exactly as it would have without it.
public enum AgentReply: Codable, Sendable, Equatable {
    case status(state: AgentStatus)
    case done
    /// The payload is the requested field. `secretSet`: when the password was set, so that the
    /// git helper can remember which password a host rejected (`GitRejections`). `tied`: how
    /// many credentials were equally good, this one included (more than one: the use history
    /// chose, which `get` says); 1 for an id.
    case credential(identity: IdentityStore.Identity, secretSet: Int64, tied: Int)
    case identity(IdentityStore.Identity)
    /// The lengths of the values a `values` request asked for, in order, its payload holding them.
    case values(lengths: [Int])
    case identities(identities: [IdentityStore.Identity], equivalents: [[String]])
    /// A credential without its secrets, for the detail screen (`AgentRequest.details`).
    case details(CredentialOutline)
    /// The secrets a `reveal` asked for, one after the other in the payload, with their lengths
    /// and the outline they belong to (the screen checks it still shows that one).
    case revealed(outline: CredentialOutline, lengths: [Int])
    case refused(status: ExitStatus, message: String)
    /// A merge was done: what came from the other copy.
    case merged(ReconcileSummary)
    /// What an audit found: titles, ids and kinds of finding only.
    case audit(AuditReport)
    /// An `equivalents` change was saved: the group the first domain added is in, and the
    /// domains a removal found in no group.
    case equivalents(group: [String]?, unknown: [String])
    /// An import was done (or refused after its report: see `ImportOutcome`).
    case imported(ImportOutcome)
    /// A `keyring` request's answer; a secret read is the payload.
    case keyring(KeyringAnswer)
}

public struct AgentStatus: Codable, Sendable, Equatable {
    public var locked: Bool
    public var vault: String
    public var locksInSeconds: Int
    public var pid: Int32

    public init(locked: Bool, vault: String, locksInSeconds: Int, pid: Int32) {
        self.locked = locked
        self.vault = vault
        self.locksInSeconds = locksInSeconds
        self.pid = pid
    }
}
