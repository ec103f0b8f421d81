import ServiceMatching
import VaultModel

/// What a client asks of the agent. Secrets never travel in a request: the master password
/// (`unlock`) and a new password (`write` of a change that `needsSecret`) go beside it, as the
/// message's payload in protected memory.
public enum AgentRequest: Codable, Sendable, Equatable {
    case status
    /// The payload is the master password.
    case unlock
    case lock
    case stop
    /// `field` of the credential `query` names, as the reply's payload.
    case get(vault: String, query: CredentialQuery, field: CredentialField)
    /// Several fields of credentials named by id (`pwtui run`'s and `inject`'s references): one
    /// round trip instead of one a value. The payload is the values one after the other, each
    /// without the newline `get` ends it with; the reply gives their lengths.
    case values(vault: String, ids: [String], fields: [CredentialField])
    /// Every identity and the equivalent domains: a picker's list when the identity store is off.
    /// With `username`, only that account's (what `add` checks for a duplicate: a few instead of
    /// every credential, which for 10,000 took longer to code as JSON than the add itself).
    case identities(vault: String, username: String? = nil)
    /// One credential's identity, by id or unique prefix.
    case describe(vault: String, id: String)
    /// The payload is the new password when `change.needsSecret`.
    case write(vault: String, change: CredentialChange)
    /// `pwtui import` of an export the agent reads itself (not a pass store, which needs gpg and
    /// its pinentry where the user is): read outside the agent's turns, applied to a copy of the
    /// vault and saved, one save. Long work.
    case importFile(vault: String, order: ImportOrder)
    /// `equivalents add|rm`: the vault's own equivalent domains changed and saved.
    case equivalents(vault: String, change: EquivalentsChange)
    /// `show` and `history`: the credential with this full id, rendered as `view` asks, as the
    /// reply's payload.
    case view(vault: String, id: String, view: CredentialView)
    /// The picker's detail screen, with no vault open in the client: the credential with this
    /// full id without its secrets (`CredentialOutline`).
    case details(vault: String, id: String)
    /// The detail screen's `r`: the secrets it may draw of the credential with this full id, in
    /// `CredentialOutline.revealable`'s order, as the payload. Given like a revealed `show`: to
    /// the programs the credential is bound to.
    case reveal(vault: String, id: String)
    /// git's merge driver: reconcile three copies of the held vault (absolute paths), the result
    /// replacing `ours`. Refused (75) unless every copy is under the key the agent holds, or the
    /// payload (when not empty) is the master password of the copies that are not: the one set
    /// on another machine by `passwd`.
    case mergeFiles(base: String, ours: String, theirs: String)
    /// A conflict copy (absolute path) merged into the held vault with the save protocol.
    case mergeCopy(vault: String, copy: String)
    /// The held vault's journal folded into a new snapshot (`sync`, before it commits the file).
    case compact(vault: String)
    /// `pwtui audit`: the held vault's passwords judged (weak, reused, old, breached) where they
    /// are; only the report, without a secret, comes back.
    case audit(vault: String, options: AuditOptions)
    /// The Secret Service's items (`pwtui secret-service`): a `KeyringRequest`, with a new
    /// secret as the payload, or the secret read as the reply's.
    case keyring(vault: String, request: KeyringRequest)

    /// How long a request and its answer may take in all; an unlock with the strongest key
    /// derivation the agent accepts takes a few seconds of it.
    public static let answerTime = Duration.seconds(10)

    /// How long long work (`isLongWork`) may take in the agent before it gives up; a client waits
    /// for its answer a little longer (`answerTimeout`).
    public static let longWorkTime = Duration.seconds(60)

    /// Work that grows with the vault (an audit reads every secret): done on a copy, outside the
    /// agent's turns, within `longWorkTime`, and given up when its client hangs up.
    public var isLongWork: Bool {
        switch self {
        case .audit, .importFile: return true
        default: return false
        }
    }

    /// Whether it changes the vault: asked twice, it would be made twice (`AgentKeptConnection`
    /// asks again only what does not).
    public var changesVault: Bool {
        switch self {
        case .write, .importFile, .equivalents, .mergeFiles, .mergeCopy: return true
        case .keyring(_, let request): return request.isWrite
        default: return false
        }
    }

    /// How long a client waits for the answer once the request is sent.
    public var answerTimeout: Duration {
        if case .keyring(_, let request) = self, request.mayAsk { return Self.questionTime }
        return isLongWork ? Self.longWorkTime + .seconds(5) : Self.answerTime
    }

    /// How long a client waits for a request that may ask the user (a keyring item's approval,
    /// the master password): longer than the user has to answer (`SSHRequesterTerminal`).
    public static let questionTime = Duration.seconds(75)

    /// The vault a request is about; nil for the agent's own operations.
    public var vault: String? {
        switch self {
        case .status, .unlock, .lock, .stop, .mergeFiles: return nil
        case .mergeCopy(let vault, _): return vault
        case .compact(let vault): return vault
        case .audit(let vault, _), .keyring(let vault, _): return vault
        case .get(let vault, _, _), .values(let vault, _, _), .identities(let vault, _), .describe(let vault, _),
            .write(let vault, _), .equivalents(let vault, _), .importFile(let vault, _),
            .view(let vault, _, _), .details(let vault, _), .reveal(let vault, _):
            return vault
        }
    }
}
