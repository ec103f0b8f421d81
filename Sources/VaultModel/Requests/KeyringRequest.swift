import FoundationEssentials
import Platform
import VaultCrypto

/// What the Secret Service asks of the vault's keyring items (`KeyringItem`), through the agent
/// (`AgentRequest.keyring`). A secret never travels in a request: a new one goes beside it, in
/// protected memory, and one read comes back the same way.
public enum KeyringRequest: Codable, Sendable, Equatable {
    /// The items whose attributes include every pair given (all for none).
    case search(attributes: [String: String])
    /// One item, without its secret.
    case describe(id: String)
    /// The collection: whether it is locked, and with `times` the times of its oldest and newest
    /// item (a pass over the vault, no listing). Without them (0), it costs nothing that grows
    /// with the vault: secretstorage asks whether it is locked before every create.
    case collection(times: Bool)
    /// The item's secret, as the payload, for `reader`: asked first when its policy says so —
    /// only when `asking`; without, a read that would ask is answered `mustAsk` at once (the
    /// relay asks again off its bus's thread, which must not wait for a person).
    case secret(id: String, reader: KeyringCaller, asking: Bool)
    /// A new item with the payload as its secret; with `replace`, the one whose attributes are
    /// exactly these has its secret and label replaced instead.
    case create(
        label: String, attributes: [String: String], contentType: String, replace: Bool, creator: KeyringCaller)
    /// The payload as the item's new secret (the old one kept in its history).
    case setSecret(id: String, contentType: String)
    /// A new label or attributes (nil: kept).
    case update(id: String, label: String?, attributes: [String: String]?)
    case delete(id: String)
    /// A locked agent unlocked with the master password asked of the user where `reader` runs
    /// (the terminal or tmux popup an SSH approval uses); refused when there is nobody to ask.
    case unlock(reader: KeyringCaller)

    /// Whether it may wait for the user (a question, the master password): the client waits as
    /// long as a question may take.
    public var mayAsk: Bool {
        switch self {
        case .secret(_, _, let asking): asking
        case .unlock: true
        default: false
        }
    }

    /// Whether it changes the vault.
    public var isWrite: Bool {
        switch self {
        case .create, .setSecret, .update, .delete: true
        default: false
        }
    }
}

/// The program on the other end of a Secret Service call, as the bus daemon names it: its
/// process, which the agent names by its executable (`ProcessChain`), never by its own word.
public struct KeyringCaller: Codable, Sendable, Equatable {
    public var pid: Int32?

    public init(pid: Int32?) {
        self.pid = pid
    }
}

/// An item as the Secret Service shows it: never its secret.
public struct KeyringItemSummary: Codable, Sendable, Equatable {
    public var id: String
    public var label: String
    public var attributes: [String: String]
    public var contentType: String
    /// Milliseconds since 1970.
    public var created: Int64
    public var modified: Int64

    public init(
        id: String, label: String, attributes: [String: String], contentType: String, created: Int64, modified: Int64
    ) {
        self.id = id
        self.label = label
        self.attributes = attributes
        self.contentType = contentType
        self.created = created
        self.modified = modified
    }

    public init(_ credential: Credential) {
        id = KeyringItem.id(of: credential)
        label = KeyringItem.label(of: credential)
        attributes = KeyringItem.attributes(of: credential)
        contentType = KeyringItem.contentType(of: credential)
        created = credential.created.millisecondsSince1970
        modified = credential.modified.millisecondsSince1970
    }
}

/// The agent's answer to a `KeyringRequest`.
public enum KeyringAnswer: Codable, Sendable, Equatable {
    /// `locked`: the vault is locked, and these are what the identity store lists
    /// (`IdentityStore.LockedKeyringItem`): the ids and labels of the items a search selects, no
    /// attributes and no times.
    case items([KeyringItemSummary], locked: Bool)
    /// The payload is the secret.
    case secret(contentType: String)
    /// `item`: as it is now, so that the properties a client reads next cost no round trip.
    case created(id: String, replaced: Bool, item: KeyringItemSummary)
    /// The read asks the user first, and was asked not to (`secret`'s `asking`).
    case mustAsk
    /// Milliseconds since 1970; 0 for an empty collection (and a locked one).
    case collection(locked: Bool, created: Int64, modified: Int64)
    case done
}

extension KeyringRequest {
    /// The keyring items of `contents` that `attributes` select, in the vault's order.
    public static func items(in contents: VaultContents, matching attributes: [String: String]) -> [Credential] {
        let fields = KeyringItem.attributeFields(attributes)
        return contents.credentials.filter { KeyringItem.matches($0, fields: fields) }
    }

    /// The keyring item `id` names.
    public static func item(_ id: String, in vault: Vault) throws -> Credential {
        // By its UUID, not `Vault.credential(id:)`: that one takes a prefix a person typed and
        // compares text with every credential's id; three of these are asked for every read.
        guard let text = KeyringItem.credentialID(id), let uuid = UUID(uuidString: text),
            let credential = vault.contents.credential(withID: uuid), credential.kind == .keyring
        else { throw VaultError.noMatch("no keyring item \(id.prefix(40))") }
        return credential
    }

    /// A change applied to `vault` (not saved yet): what it answers. `secret` is read by
    /// `create` and `setSecret` only; `creator` names the program for `create`.
    public func apply(to vault: Vault, secret: borrowing SecureBytes, creator: String?) throws -> KeyringAnswer {
        switch self {
        case .create(let label, let attributes, let contentType, let replace, _):
            try KeyringItem.check(attributes)
            let fields = KeyringItem.attributeFields(attributes)
            if replace,
                let existing = vault.contents.credentials.first(where: {
                    KeyringItem.matchesExactly($0, fields: fields)
                })
            {
                try Self.replaceSecret(of: existing, in: vault, with: secret, contentType: contentType)
                try Self.setLabel(label, of: existing, in: vault)
                return try Self.created(existing.id, replaced: true, in: vault)
            }
            let isHex = KeyringItem.needsHex(secret)
            let stored = try KeyringItem.stored(secret, hex: isHex)
            let credential = try vault.add(
                services: [], username: "", secret: stored, title: KeyringItem.title(for: label))
            try vault.update(credential.id) { $0.kind = .keyring }
            try Self.setLabel(label, of: credential, in: vault)
            let none = try SecureBytes(zeros: 0)
            if let creator {
                try vault.setField(of: credential.id, name: KeyringItem.creatorField, text: creator, secret: none)
            }
            try Self.setAttributes(attributes, of: credential, in: vault)
            try Self.setEncoding(of: credential.id, in: vault, isHex: isHex, contentType: contentType)
            return try Self.created(credential.id, replaced: false, in: vault)
        case .setSecret(let id, let contentType):
            try Self.replaceSecret(of: try Self.item(id, in: vault), in: vault, with: secret, contentType: contentType)
            return .done
        case .update(let id, let label, let attributes):
            let credential = try Self.item(id, in: vault)
            if let label { try Self.setLabel(label, of: credential, in: vault) }
            if let attributes {
                try KeyringItem.check(attributes)
                try Self.setAttributes(attributes, of: credential, in: vault)
            }
            return .done
        case .delete(let id):
            try vault.remove(try Self.item(id, in: vault).id)
            return .done
        case .search, .describe, .collection, .secret, .unlock:
            throw VaultError.invalidRequest("a keyring read is no change")
        }
    }

    private static func created(_ id: UUID, replaced: Bool, in vault: Vault) throws -> KeyringAnswer {
        guard let item = vault.contents.credential(withID: id) else {
            throw VaultError.noMatch("the keyring item just stored is gone")
        }
        return .created(id: KeyringItem.id(of: item), replaced: replaced, item: KeyringItemSummary(item))
    }

    /// The item's label made `label`: its title, and the label itself in `labelField` when the
    /// title cannot be it (`KeyringItem.title(for:)`).
    private static func setLabel(_ label: String, of credential: Credential, in vault: Vault) throws {
        let title = KeyringItem.title(for: label)
        if title != credential.title { try vault.update(credential.id) { $0.title = title } }
        let verbatim = title == label ? nil : label
        guard credential.field(named: KeyringItem.labelField)?.text != verbatim else { return }
        if let verbatim {
            try vault.setField(
                of: credential.id, name: KeyringItem.labelField, text: verbatim, secret: try SecureBytes(zeros: 0))
        } else {
            try vault.removeField(of: credential.id, name: KeyringItem.labelField)
        }
    }

    /// The secret replaced (the old one to the history), and its encoding and content type
    /// fields made to match the new one.
    private static func replaceSecret(
        of credential: Credential, in vault: Vault, with secret: borrowing SecureBytes, contentType: String
    ) throws {
        let isHex = KeyringItem.needsHex(secret)
        try vault.replaceSecret(of: credential.id, with: try KeyringItem.stored(secret, hex: isHex))
        try setEncoding(of: credential.id, in: vault, isHex: isHex, contentType: contentType)
    }

    private static func setEncoding(of id: UUID, in vault: Vault, isHex: Bool, contentType: String) throws {
        guard let credential = vault.contents.credential(withID: id) else {
            throw VaultError.noMatch("no keyring item \(KeyringItem.id(of: id))")
        }
        let none = try SecureBytes(zeros: 0)
        let fields: [(String, String?)] = [
            (KeyringItem.encodingField, isHex ? "hex" : nil),
            (KeyringItem.contentTypeField, contentType == KeyringItem.defaultContentType ? nil : contentType),
        ]
        for (name, text) in fields where credential.field(named: name)?.text != text {
            if let text {
                try vault.setField(of: id, name: name, text: text, secret: none)
            } else {
                try vault.removeField(of: id, name: name)
            }
        }
    }

    /// The item's `attribute NAME` fields made exactly `attributes`: the ones gone removed, the
    /// new and changed ones set, the rest left (and their stamps with them).
    private static func setAttributes(_ attributes: [String: String], of credential: Credential, in vault: Vault) throws
    {
        let current = KeyringItem.attributes(of: credential)
        let none = try SecureBytes(zeros: 0)
        for name in current.keys.sorted() where attributes[name] == nil {
            try vault.removeField(of: credential.id, name: KeyringItem.attributePrefix + name)
        }
        for (name, value) in attributes.sorted(by: { $0.key < $1.key }) where current[name] != value {
            try vault.setField(of: credential.id, name: KeyringItem.attributePrefix + name, text: value, secret: none)
        }
    }
}
