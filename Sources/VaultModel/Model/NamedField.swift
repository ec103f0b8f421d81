import Platform

/// A named field of a credential beyond its username and password (format 1.3): a PIN, a
/// recovery email, a licence key, a 1Password secret key, a security answer.
///
/// A field is text or secret. A secret field's value lives in the vault's `SecretArena` like the
/// password, never in a `String`: it is masked wherever the credential is shown, revealed only
/// on request, and a value it replaces goes to the field's own history, as a replaced password
/// does. Exports and imports that know of hidden fields (Bitwarden's type 1, KeePass's
/// ProtectInMemory) carry the distinction; nothing secret is kept in the notes.
public struct NamedField: Sendable {
    public enum Value: Sendable {
        case text(String)
        case secret(SecretReference)
    }

    public var name: String
    public var value: Value
    /// Earlier values of a secret field, with when each was replaced.
    public var history: [PreviousSecret]

    public init(name: String, value: Value, history: [PreviousSecret] = []) {
        self.name = name
        self.value = value
        self.history = history
    }

    /// The earlier values as `pwtui history` and the detail screen list them: the one replaced
    /// last first (as `Credential.previousSecrets`).
    public var previousValues: [PreviousSecret] {
        history.enumerated().sorted { ($0.element.replaced, $0.offset) > ($1.element.replaced, $1.offset) }.map(
            \.element)
    }

    public var isSecret: Bool {
        if case .secret = value { return true } else { return false }
    }

    /// The text of a text field; nil for a secret one.
    public var text: String? {
        if case .text(let text) = value { return text } else { return nil }
    }

    /// Where a secret field's value is in the arena; nil for a text one.
    public var secret: SecretReference? {
        if case .secret(let reference) = value { return reference } else { return nil }
    }

    /// Whether `name` names this field: names are compared without case, as people type them.
    public func isNamed(_ name: String) -> Bool {
        self.name.lowercased() == name.lowercased()
    }

    /// `fields` with their secrets (values and histories) copied from `source` into `arena`.
    static func copied(_ fields: [NamedField], from source: SecretArena, into arena: SecretArena) throws -> [NamedField]
    {
        func store(_ secret: SecretReference) throws -> SecretReference {
            try source.withBytes(of: secret) { try arena.store($0) }
        }
        return try fields.map { field in
            var copy = field
            if let secret = field.secret { copy.value = .secret(try store(secret)) }
            for index in copy.history.indices { copy.history[index].secret = try store(copy.history[index].secret) }
            return copy
        }
    }
}
