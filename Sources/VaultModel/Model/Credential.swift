import FoundationEssentials
import ServiceMatching
import Platform
import UnicodeText

/// One login: the unit the picker lists and `get` returns.
///
/// Everything here except the secret is an identity (AutoFill's `ASPasswordCredentialIdentity`):
/// safe to list and to rank. The secret itself stays in the vault's `SecretArena`, referenced,
/// never copied into a `String`. When the secret changes, the old one moves to `history` with
/// the time it was replaced, so a password changed by mistake is never lost.
public struct Credential: Sendable {
    public let id: UUID
    public var title: String
    public var services: [ServiceIdentifier]
    public var username: String
    public var secret: SecretReference
    public var notes: String
    /// Higher is offered first among equally good matches (AutoFill's identity rank).
    public var rank: Int32
    public let created: Timestamp
    public var modified: Timestamp
    public var history: [PreviousSecret]
    /// The authenticator key for one-time codes (TOTP), if the site uses them.
    public var totp: OneTimeKey?
    /// The authenticator keys it replaced, oldest first: kept like the password's history.
    public var totpHistory: [PreviousOneTimeKey] = []
    /// Named fields, text or secret (format 1.3), in the order they were added.
    public var fields: [NamedField] = []
    /// A login, a secure note, a card or an identity (format 1.3): how it is listed.
    public var kind: ItemKind = .login
    /// The programs it may be given to (format 1.4), by executable name; empty: any program.
    /// Kept sorted and without repeats, so that two copies with the same bindings are equal.
    public var allowedPrograms: [String] = []
    /// When the export it came from says its password was set, where it says so without keeping
    /// the history: a KeePass entry that kept no old versions had its password set no later than
    /// its Last Modified (issue 38: audit called such a password as old as the entry). Nil for
    /// everything else; `secretSet` takes the latest of it, the creation and the history.
    public var importedSecretSet: Timestamp?

    public init(
        id: UUID, title: String, services: [ServiceIdentifier], username: String,
        secret: SecretReference, notes: String = "", rank: Int32 = 0,
        created: Timestamp, modified: Timestamp, history: [PreviousSecret] = [], totp: OneTimeKey? = nil,
        fields: [NamedField] = [], kind: ItemKind = .login
    ) {
        self.kind = kind
        self.fields = fields
        self.id = id
        self.title = title
        self.services = services
        self.username = username
        self.secret = secret
        self.notes = notes
        self.rank = rank
        self.created = created
        self.modified = modified
        self.history = history
        self.totp = totp
    }

    /// Whether something names the credential: a service, or a title for an item without a site
    /// (a Wi-Fi password, a licence key, a safe's combination: format 1.3). One without either
    /// could be found by its id only, so it is refused.
    public var isNamed: Bool {
        !services.isEmpty || !title.trimmingSpacesAndNewlines().isEmpty
    }

    /// `field` set: a field of that name (without case) keeps its name and history, and a secret
    /// value it replaces joins that history, replaced at `time`; otherwise it is added.
    mutating func set(_ field: NamedField, at time: Timestamp) {
        guard let index = fields.firstIndex(where: { $0.isNamed(field.name) }) else {
            fields.append(field)
            return
        }
        var updated = field
        updated.name = fields[index].name
        updated.history = fields[index].history
        if let old = fields[index].secret { updated.history.append(PreviousSecret(secret: old, replaced: time)) }
        fields[index] = updated
    }

    /// The authenticator key set to `key` (nil: removed) at `time`; the key it replaces joins
    /// `totpHistory`, like a replaced password. Both keys' bytes are in the same arena.
    mutating func replaceOneTimeKey(with key: OneTimeKey?, at time: Timestamp) {
        if let old = totp { totpHistory.append(PreviousOneTimeKey(key: old, replaced: time)) }
        totp = key
    }

    /// The field called `name` (without case), if any.
    public func field(named name: String) -> NamedField? {
        fields.first { $0.isNamed(name) }
    }

    /// Whether a request from `chain` may have it: unbound, or one of the chain's programs is
    /// one it is bound to (`ProcessChain` says how they are named).
    public func isGiven(to chain: ProcessChain) -> Bool {
        Self.allows(allowedPrograms, chain)
    }

    /// `isGiven` from the one field it reads (for ranking: see `displayTitle(_:_:)`).
    static func allows(_ allowedPrograms: [String], _ chain: ProcessChain) -> Bool {
        allowedPrograms.isEmpty || chain.names.contains { allowedPrograms.contains($0) }
    }

    /// `isGiven`, or `WithheldCredential` (exit 1: not for this program).
    public func requireGiven(to chain: ProcessChain) throws {
        guard !isGiven(to: chain) else { return }
        throw WithheldCredential(self, chain: chain)
    }

    /// The title, or the first service when no title was given.
    public var displayTitle: String {
        Self.displayTitle(title, services)
    }

    /// `displayTitle` from the two fields it reads, for ranking, which reads a credential's fields
    /// in place rather than copying it whole (`CredentialRanking.best`).
    static func displayTitle(_ title: String, _ services: [ServiceIdentifier]) -> String {
        title.isEmpty ? (services.first?.text ?? "") : title
    }

    /// The history as `pwtui history` and the detail screen list it, and as a restore counts it:
    /// the secret replaced last first.
    public var previousSecrets: [PreviousSecret] {
        // Newest first; of two replaced at the same millisecond, the one appended later.
        history.enumerated().sorted { ($0.element.replaced, $0.offset) > ($1.element.replaced, $1.offset) }.map(
            \.element)
    }

    /// When the current secret was set: the last replacement, else the creation. It changes
    /// exactly when the secret does (an edit of the title or notes leaves it), also when the
    /// change comes from another copy of the vault through a merge.
    public var secretSet: Timestamp {
        history.reduce(Swift.max(created, importedSecretSet ?? created)) { Swift.max($0, $1.replaced) }
    }
}

/// What remains of a deleted credential: enough for a merge to tell "deleted here" from
/// "never seen here", and nothing the user typed.
public struct Tombstone: Hashable, Sendable {
    public let id: UUID
    public let deleted: Timestamp
    /// The stamp (`modified`) of the version the removal removed: what the remover saw. A copy
    /// whose credential is stamped later was changed after that version — every change is
    /// stamped after the credential's previous one, whatever the clock says — so the remover never
    /// saw that change, and a merge keeps it (`VaultReconcile.survives`). Nil in tombstones
    /// written before it was recorded: the merge then falls back to the removal's own time.
    public let seen: Timestamp?

    public init(id: UUID, deleted: Timestamp, seen: Timestamp? = nil) {
        self.id = id
        self.deleted = deleted
        self.seen = seen
    }
}

/// A credential bound to other programs than the asking one: exit 1, like no match (for this
/// program there is none), but said apart, so that a command that tries another reading of its
/// words when nothing matches (`get WORD`: a host, then a title) does not hide it.
public struct WithheldCredential: Error, CustomStringConvertible, Sendable {
    /// In every such refusal, also when it comes back from the agent as a message
    /// (`AgentRefusal.isWithheld`).
    public static let phrase = "is given only to"
    public let description: String

    public init(_ credential: Credential, chain: ProcessChain) {
        let id = credential.id.uuidString.lowercased().prefix(8)
        description =
            "\(credential.displayTitle) (\(id)) \(Self.phrase) \(credential.allowedPrograms.joined(separator: ", ")), "
            + "and this request came from \(chain); ask from one of those, or bind one more program: "
            + "pwtui edit \(id) --allow-program NAME"
    }

    /// Whether `message` (an agent's refusal) is one of these.
    public static func describes(_ message: String) -> Bool { message.contains(phrase) }
}

extension WithheldCredential: ExitStatusReporting {
    /// For this program there is no credential: 1, as for no match.
    public var exitStatus: ExitStatus { .noMatch }
}
