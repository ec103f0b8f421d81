import FoundationEssentials
import Platform
import ServiceMatching
import VaultCrypto

/// A change to one credential as `add`, `edit` and `rm` ask for it. The same value is applied
/// to a vault opened with the master password, or sent to an unlocked agent, which applies it to
/// the vault it holds — so both paths change a vault identically. A new password never travels
/// inside the change: it goes beside it, in protected memory.
public enum CredentialChange: Equatable, Sendable, Codable {
    public struct Edits: Equatable, Sendable, Codable {
        public var title: String?
        public var username: String?
        public var rank: Int32?
        public var notes: String?
        public var addServices: [String] = []
        public var removeServices: [String] = []
        public var replacesSecret = false
        /// A new authenticator key (its bytes are the change's secret) or its removal.
        public var totp: OneTimeEdit?
        /// A previous password to make current again, numbered as `Credential.previousSecrets`
        /// lists them (1: the one replaced last); the current one goes to the history.
        public var restore: Int?
        /// A named field to set (format 1.3): a secret one's value is the change's secret, a text
        /// one's travels here.
        public var setField: FieldEdit?
        /// Named fields to remove.
        public var removeFields: [String] = []
        /// Programs to bind the credential to, and bindings to remove (format 1.4).
        public var allowPrograms: [String] = []
        public var disallowPrograms: [String] = []
        /// What the item is, when it changes (`ssh generate` makes an SSH key of a new item).
        public var kind: ItemKind?
        /// Text fields to set, in order, beside `setField` (an SSH key's public key, hosts and
        /// policy: one change, one save).
        public var textFields: [FieldEdit] = []

        public init(
            title: String? = nil, username: String? = nil, rank: Int32? = nil, notes: String? = nil,
            addServices: [String] = [], removeServices: [String] = [], replacesSecret: Bool = false,
            totp: OneTimeEdit? = nil, restore: Int? = nil, setField: FieldEdit? = nil, removeFields: [String] = []
        ) {
            self.restore = restore
            self.setField = setField
            self.removeFields = removeFields
            self.title = title
            self.username = username
            self.rank = rank
            self.notes = notes
            self.addServices = addServices
            self.removeServices = removeServices
            self.replacesSecret = replacesSecret
            self.totp = totp
        }
    }

    /// A named field as `edit --field` sets it: its name, and its text unless it is secret.
    public struct FieldEdit: Equatable, Sendable, Codable {
        public var name: String
        /// nil: a secret field, whose value is the change's secret.
        public var text: String?

        public init(name: String, text: String? = nil) {
            self.name = name
            self.text = text
        }
    }

    public enum OneTimeEdit: Equatable, Sendable, Codable {
        case set(OneTimeParameters)
        case remove
    }

    /// `then`: edits made to the new credential in the same change (one save): what an item
    /// that is no login is made of (`ssh generate`: its kind and text fields). They carry no
    /// secret of their own.
    case add(services: [String], username: String, title: String, notes: String, rank: Int32, then: Edits? = nil)
    case edit(id: String, Edits)
    case remove(id: String)

    /// Whether a secret goes with the change.
    public var needsSecret: Bool {
        switch self {
        case .add: return true
        case .edit(_, let edits):
            return edits.replacesSecret || edits.totp != nil && edits.totp != .remove
                || edits.setField.map { $0.text == nil } == true
        case .remove: return false
        }
    }

    /// Applies the change to `vault` (not saved yet) and returns the credential it touched, as it
    /// is afterwards (a removed one as it was). `secret` is read only when `needsSecret`.
    /// Services are parsed again here: the agent trusts no client's parsing.
    public func apply(to vault: Vault, secret: borrowing SecureBytes, suffixes: PublicSuffixList) throws
        -> IdentityStore.Identity
    {
        switch self {
        case .add(let services, let username, let title, let notes, let rank, let then):
            if let then, Self.edit(id: "", then).needsSecret {
                throw VaultError.invalidRequest("an addition's own edits carry no secret; make that change after it")
            }
            let credential = try vault.add(
                services: try Self.credentialServices(services, suffixes: suffixes), username: username,
                secret: secret, title: title, notes: notes, rank: rank)
            guard let then else { return IdentityStore.Identity(credential) }
            return try Self.edit(id: credential.id.uuidString, then).apply(
                to: vault, secret: try SecureBytes(zeros: 0), suffixes: suffixes)
        case .edit(let id, let edits):
            let added = try Self.credentialServices(edits.addServices, suffixes: suffixes)
            let removed = try edits.removeServices.map { try ServiceIdentifier($0) }
            let credential = try vault.credential(id: id)
            // One secret travels with a change: a password or an authenticator key, not both.
            if edits.replacesSecret, case .set = edits.totp {
                throw VaultError.invalidRequest(
                    "a new password and a new authenticator key are two changes; make them one after the other")
            }
            let secretUses = [
                edits.replacesSecret, { if case .set = edits.totp { return true } else { return false } }(),
                edits.setField.map { $0.text == nil } == true,
            ].filter { $0 }.count
            guard secretUses <= 1 else {
                throw VaultError.invalidRequest(
                    "a new password, authenticator key or secret field are separate changes; make them one after the other"
                )
            }
            for name in edits.removeFields where credential.field(named: name) == nil {
                throw VaultError.noMatch("\(credential.displayTitle) has no field '\(name)'")
            }
            for service in removed where !credential.services.contains(service) {
                throw VaultError.invalidRequest("\(credential.displayTitle) has no service '\(service.text)'")
            }
            for program in edits.allowPrograms { try Self.checkProgramName(program) }
            for program in edits.disallowPrograms where !credential.allowedPrograms.contains(program) {
                throw VaultError.invalidRequest(
                    "\(credential.displayTitle) is not bound to '\(program)'"
                        + (credential.allowedPrograms.isEmpty
                            ? " (it is bound to no program)"
                            : " (its programs: \(credential.allowedPrograms.joined(separator: ", ")))"))
            }
            // First: a number the history does not have is refused before anything changes.
            if let number = edits.restore { try vault.restoreSecret(of: credential.id, previous: number) }
            try vault.update(credential.id) { entry in
                if let title = edits.title { entry.title = title }
                if let username = edits.username { entry.username = username }
                if let rank = edits.rank { entry.rank = rank }
                if let notes = edits.notes { entry.notes = notes }
                entry.services.removeAll { removed.contains($0) }
                for service in added where !entry.services.contains(service) { entry.services.append(service) }
                entry.allowedPrograms = Set(entry.allowedPrograms).union(edits.allowPrograms)
                    .subtracting(edits.disallowPrograms).sorted()
                if let kind = edits.kind { entry.kind = kind }
            }
            if edits.replacesSecret { try vault.replaceSecret(of: credential.id, with: secret) }
            switch edits.totp {
            case .set(let parameters): try vault.setOneTimeKey(of: credential.id, to: parameters, key: secret)
            case .remove: try vault.setOneTimeKey(of: credential.id, to: nil, key: try SecureBytes(zeros: 0))
            case nil: break
            }
            if let field = edits.setField {
                try vault.setField(of: credential.id, name: field.name, text: field.text, secret: secret)
            }
            for field in edits.textFields {
                guard let text = field.text else {
                    throw VaultError.invalidRequest("the field '\(field.name)' needs a text (one secret per change)")
                }
                try vault.setField(of: credential.id, name: field.name, text: text, secret: secret)
            }
            for name in edits.removeFields { try vault.removeField(of: credential.id, name: name) }
            return try IdentityStore.Identity(vault.credential(id: credential.id.uuidString))
        case .remove(let id):
            let credential = try vault.credential(id: id)
            try vault.remove(credential.id)
            return IdentityStore.Identity(credential)
        }
    }

    /// A program is bound by its executable's file name (`ProcessChain`): a path would never
    /// match, and is refused with what to give instead.
    static func checkProgramName(_ name: String) throws {
        guard !name.isEmpty, !name.contains(where: { $0.isWhitespace || $0.isNewline }) else {
            throw VaultError.invalidRequest("a program's name is one word, as `ps -o comm` shows it ('\(name)' is not)")
        }
        guard !name.contains("/") else {
            let file = name.split(separator: "/").last.map(String.init) ?? name
            throw VaultError.invalidRequest(
                "a program is bound by its file name, not its path: give '\(file)' instead of '\(name)'")
        }
    }

    /// Parses services a user gives for a credential: also refuses wildcards that would cover a
    /// whole public suffix (`*.co.uk`, `*.github.io`).
    public static func credentialServices(_ texts: [String], suffixes: @autoclosure () -> PublicSuffixList) throws
        -> [ServiceIdentifier]
    {
        let services = try texts.map { try ServiceIdentifier($0) }
        guard services.contains(where: \.isWildcard) else { return services }
        let suffixes = suffixes()
        for service in services where service.isWildcard && suffixes.isPublicSuffix(service.host) {
            throw VaultError.invalidRequest(
                "invalid service '\(service.text)': it would cover every site under the public suffix '\(service.host)'"
            )
        }
        return services
    }
}
