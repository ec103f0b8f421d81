import FoundationEssentials
import Platform
import ServiceMatching
import VaultModel

/// What the detail screen shows of one credential and may do to it, given by whatever unlocking
/// opened (pwtui's `Vault`, behind `Commands`): `TUI` knows no vault, so the screen reads the
/// credential, borrows its secrets and asks for a restore through this, and nothing else.
///
/// The secrets stay where they are (pwtui: the vault's protected arena); they are lent to the
/// screen only while it draws a revealed frame, never returned as values. Details that do not
/// hold them yet (pwtui: an unlocked agent's, `AgentCredentialDetails`) fetch them in
/// `fetchSecrets`, which the screen calls, as slow work, before its first revealed frame.
public protocol CredentialDetails: AnyObject {
    /// The credential as it is now (after a restore too): identity, times, history references.
    var credential: Credential { get }
    /// How `service` matched the request the picker was opened for; nil when it did not (or
    /// nothing was requested).
    func match(of service: ServiceIdentifier) -> MatchKind?
    /// The last time the credential was handed over (the local use history), nil if never.
    var lastUsed: Timestamp? { get }
    /// Lends one secret of `credential` (its password or a previous one); the bytes must not
    /// escape `body`. Before `fetchSecrets` succeeded, details that fetch lend an empty buffer.
    func withSecret<Result>(_ reference: SecretReference, _ body: (UnsafeRawBufferPointer) throws -> Result) rethrows
        -> Result
    /// Lends the one-time code valid now (ASCII digits) and the seconds it stays valid; nil when
    /// the credential has no authenticator key. The bytes must not escape `body`.
    func withOneTimeCode<Result>(_ body: (UnsafeRawBufferPointer, Int) throws -> Result) throws -> Result?
    /// Makes previous password `number` (as `Credential.previousSecrets` counts, from 1) current,
    /// keeping the current one in the history, and saves. Errors carry a message for a person.
    func restore(previous number: Int) throws
    /// What an audit found about the password when the screen opened (`pwtui audit`'s kinds:
    /// weak, reused, old, breached); empty when nothing was, or nobody audited.
    var findings: [AuditFinding] { get }
    /// Whether the secrets must be fetched (`fetchSecrets`) before they can be lent.
    var needsFetching: Bool { get }
    /// Makes the secrets ready to lend, before the first revealed frame. Errors carry a message
    /// for a person (a credential bound to other programs, an agent that locked meanwhile).
    func fetchSecrets() throws
}

extension CredentialDetails {
    public var findings: [AuditFinding] { [] }
    /// Details over an open vault hold their secrets already.
    public var needsFetching: Bool { false }
    public func fetchSecrets() throws {}
}
