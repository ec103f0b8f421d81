import FoundationEssentials
import Platform
import ServiceMatching
import TUI
import VaultAgent
import VaultCrypto
import VaultModel

/// The detail screen's view of one credential held by an unlocked agent (`CredentialDetails`),
/// for a picker whose list came from the identity store or the agent: no vault is open here, and
/// no master password is asked.
///
/// The agent gives the credential without its secrets (`AgentRequest.details`, a
/// `CredentialOutline`); its secrets come only when the user presses `r` (`fetchSecrets`: all of
/// this credential's in one `AgentRequest.reveal`, given like a revealed `show`, so a credential
/// bound to other programs is refused with the agent's message), into protected memory of this
/// screen's own, zeroed when the screen is left. A one-time code is asked for once per period.
/// A restore is the same `CredentialChange` as `pwtui edit --restore`, made and saved by the agent.
///
/// Every request goes through `VaultAccess`'s agent calls, which never fall back to a prompt: an
/// agent that locked while the screen is open is a message on the screen, not a password asked
/// under it (Esc, and choose again: the picker then unlocks here).
final class AgentCredentialDetails: CredentialDetails {
    let path: String
    let id: UUID
    let requests: [ServiceIdentifier]
    let ranking: RankingContext
    let context: CommandContext
    let findings: [AuditFinding]
    private var outline: CredentialOutline
    private(set) var credential: Credential
    /// The revealed secrets, and where each of `outline`'s numbers is among them; nil until fetched.
    private var secrets: SecretArena?
    private var placed: [SecretReference] = []
    /// The one-time code of the period `codePeriod` counts (seconds since 1970 / period).
    private var code: SecureBytes?
    private var codePeriod: Int64?

    /// Nil when no unlocked agent holds `path` (the caller unlocks here instead).
    init?(
        _ id: UUID, vaultPath path: String, requests: [ServiceIdentifier], ranking: RankingContext,
        context: CommandContext, findings: [AuditFinding] = []
    ) throws {
        guard let outline = try VaultAccess.agentOutline(of: id, in: path, context: context) else { return nil }
        self.path = path
        self.id = id
        self.requests = requests
        self.ranking = ranking
        self.context = context
        self.findings = findings
        self.outline = outline
        credential = try outline.credential()
    }

    func match(of service: ServiceIdentifier) -> MatchKind? {
        requests.compactMap { ServiceMatch.tier(stored: service, request: $0, context: ranking) }.min {
            $0.order < $1.order
        }
    }

    var lastUsed: Timestamp? { ranking.usage.lastUsed(id) }

    var needsFetching: Bool { secrets == nil }

    func fetchSecrets() throws {
        guard secrets == nil else { return }
        guard let revealed = try VaultAccess.agentReveal(of: id, in: path, context: context) else {
            throw Self.locked
        }
        guard revealed.outline == outline, revealed.lengths.count == outline.secretCount else {
            throw CommandFailure(
                .interactionRequired,
                "\(credential.displayTitle) changed since this screen opened; Esc, and open it again")
        }
        let arena = try SecretArena(capacity: revealed.secrets.count)
        var start = 0
        placed = try revealed.lengths.map { length in
            defer { start += length }
            return try revealed.secrets.withUnsafeBytes {
                try arena.store(UnsafeRawBufferPointer(rebasing: $0[start ..< start + length]))
            }
        }
        secrets = arena
    }

    func withSecret<Result>(_ reference: SecretReference, _ body: (UnsafeRawBufferPointer) throws -> Result) rethrows
        -> Result
    {
        guard let secrets, let number = outline.number(of: reference), placed.indices.contains(number) else {
            return try body(UnsafeRawBufferPointer(start: nil, count: 0))
        }
        return try secrets.withBytes(of: placed[number], body)
    }

    func withOneTimeCode<Result>(_ body: (UnsafeRawBufferPointer, Int) throws -> Result) throws -> Result? {
        guard let parameters = outline.oneTime, parameters.isValid else { return nil }
        let seconds = Clock.system.now().millisecondsSince1970 / 1000
        let period = seconds / Int64(parameters.period)
        if codePeriod != period {
            code = nil
            guard let fresh = try VaultAccess.agentOneTimeCode(of: id, in: path, context: context) else {
                throw Self.locked
            }
            code = consume fresh
            codePeriod = period
        }
        let secondsLeft = parameters.period - Int(seconds % Int64(parameters.period))
        return try code?.withUnsafeBytes { try body($0, secondsLeft) }
    }

    func restore(previous number: Int) throws {
        let change = CredentialChange.edit(id: id.uuidString, .init(restore: number))
        guard try VaultAccess.agentApply(change, in: path, context: context) else { throw Self.locked }
        guard let changed = try VaultAccess.agentOutline(of: id, in: path, context: context) else { throw Self.locked }
        outline = changed
        credential = try changed.credential()
        // Revealed before: the new history's secrets, so the screen stays revealed.
        let wasRevealed = secrets != nil
        secrets = nil
        placed = []
        if wasRevealed { try fetchSecrets() }
    }

    private static let locked = CommandFailure(
        .interactionRequired, "the agent locked since this screen opened; Esc, and choose again to unlock here")
}
