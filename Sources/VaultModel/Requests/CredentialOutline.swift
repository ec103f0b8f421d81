import FoundationEssentials
import Platform
import ServiceMatching

/// One credential as the picker's detail screen shows it, without a byte of its secrets: what an
/// unlocked agent gives a client that has no vault open (`AgentRequest.details`), so that the
/// screen works without the master password.
///
/// Its secrets are numbered instead: `revealable(_:)` lists the ones a screen may draw, in one
/// order both sides compute from the credential — the password, its history as stored, then each
/// secret field's value and its history — and a client asks for them all by that number, in one
/// round trip, only when the user asks to see them (`AgentRequest.reveal`). An SSH key's private
/// key (and the keys it replaced) is never among them: the screen never draws it.
///
/// `credential()` rebuilds a `Credential` for the screen whose secret references are these
/// numbers (`number(of:)`), not places in an arena: they mean something only to this outline.
public struct CredentialOutline: Codable, Sendable, Equatable {
    /// A named field: its text, or nil for a secret one; and when each earlier value was replaced.
    public struct Field: Codable, Sendable, Equatable {
        public var name: String
        public var text: String?
        public var replaced: [Int64]
    }

    public var id: UUID
    public var kind: ItemKind
    public var title: String
    public var username: String
    public var services: [String]
    public var notes: String
    public var rank: Int32
    public var created: Int64
    public var modified: Int64
    /// When each previous password was replaced (milliseconds), in the history's stored order.
    public var replaced: [Int64]
    public var oneTime: OneTimeParameters?
    public var fields: [Field]
    public var allowedPrograms: [String]

    public init(_ credential: Credential) {
        id = credential.id
        kind = credential.kind
        title = credential.title
        username = credential.username
        services = credential.services.map(\.text)
        notes = credential.notes
        rank = credential.rank
        created = credential.created.millisecondsSince1970
        modified = credential.modified.millisecondsSince1970
        replaced = credential.history.map(\.replaced.millisecondsSince1970)
        oneTime = credential.totp?.parameters
        fields = credential.fields.map { field in
            Field(name: field.name, text: field.text, replaced: field.history.map(\.replaced.millisecondsSince1970))
        }
        allowedPrograms = credential.allowedPrograms
    }

    /// The secrets of `credential` a screen may draw, in the order their numbers count.
    public static func revealable(_ credential: Credential) -> [SecretReference] {
        var secrets: [SecretReference] = []
        if credential.kind != .sshKey {
            secrets.append(credential.secret)
            secrets += credential.history.map(\.secret)
        }
        for field in credential.fields {
            if let secret = field.secret { secrets.append(secret) }
            secrets += field.history.map(\.secret)
        }
        return secrets
    }

    /// How many secrets `revealable` lists for the credential this outlines.
    public var secretCount: Int {
        (kind == .sshKey ? 0 : 1 + replaced.count)
            + fields.reduce(0) { $0 + ($1.text == nil ? 1 : 0) + $1.replaced.count }
    }

    /// The number (in `revealable`'s order) that `reference`, taken from `credential()`, stands
    /// for; nil for one that stands for nothing revealable (an SSH key's private key).
    public func number(of reference: SecretReference) -> Int? {
        reference.count == 0 && (0 ..< secretCount).contains(reference.offset) ? reference.offset : nil
    }

    /// The credential for a screen, its secret references numbers (`number(of:)`). Throws
    /// `VaultError.invalidRequest` for a service that does not parse (from an agent of another version).
    public func credential() throws -> Credential {
        var next = 0
        func numbered() -> SecretReference {
            defer { next += 1 }
            return SecretReference(offset: next, count: 0)
        }
        // Never lent: stands for a key the screen does not draw.
        let unrevealable = SecretReference(offset: -1, count: 0)
        let isKey = kind == .sshKey
        let secret = isKey ? unrevealable : numbered()
        let history = replaced.map { time in
            PreviousSecret(
                secret: isKey ? unrevealable : numbered(), replaced: Timestamp(millisecondsSince1970: time))
        }
        let namedFields = fields.map { field in
            let value: NamedField.Value = field.text.map { .text($0) } ?? .secret(numbered())
            return NamedField(
                name: field.name, value: value,
                history: field.replaced.map {
                    PreviousSecret(secret: numbered(), replaced: Timestamp(millisecondsSince1970: $0))
                })
        }
        let parsed: [ServiceIdentifier]
        do {
            parsed = try services.map { try ServiceIdentifier(stored: $0) }
        } catch {
            throw VaultError.invalidRequest("the agent described a service that does not parse: \(error)")
        }
        var credential = Credential(
            id: id, title: title, services: parsed, username: username, secret: secret, notes: notes, rank: rank,
            created: Timestamp(millisecondsSince1970: created), modified: Timestamp(millisecondsSince1970: modified),
            history: history, totp: oneTime.map { OneTimeKey(parameters: $0, key: unrevealable) }, fields: namedFields,
            kind: kind)
        credential.allowedPrograms = allowedPrograms
        return credential
    }
}
