import Platform
import VaultModel

/// One item as an export file describes it, before it becomes a credential: the fields every
/// format has in some form, its secrets as references into the batch's protected arena.
///
/// Locations are kept as written (a URL, a bare domain, an app link); which of them can be a
/// service is decided when the entry is converted (`ImportConversion`), so every format gets the
/// same rules and the same warnings.
public struct ImportedEntry: Sendable {
    public enum Kind: Sendable, Equatable {
        case login
        /// A secure note, a card or an identity: imported as an item of that kind, its contents
        /// in named fields (a card's number and code secret), never in the notes.
        case item(ItemKind)
        /// Not imported (an SSH key, an item in the trash, a type pwtui does not know): listed
        /// in the report.
        case other(String)
    }

    /// Where the entry starts: a line of the file, or a path in a store directory.
    public var origin: ImportOrigin
    public var kind: Kind = .login
    public var title = ""
    public var locations: [String] = []
    public var username = ""
    public var password: SecretReference?
    public var notes = ""
    /// What the format carries beside the standard ones and the vault has no field for (a
    /// folder, a group, tags, pass's `key: value` lines); kept in the notes.
    public var extraFields: [(name: String, value: String)] = []
    /// Custom fields the user named (Bitwarden's, KeePass's extra strings): text fields.
    public var textFields: [(name: String, value: String)] = []
    /// Named fields the export marks hidden or protected (Bitwarden's hidden custom fields,
    /// KeePass's ProtectInMemory strings): secret fields of the credential, never notes.
    public var secretFields: [(name: String, value: SecretReference)] = []
    /// An `otpauth://` URI or a bare base32 key, as written; parsed at conversion.
    public var oneTimeKey: SecretReference?
    public var created: Timestamp?
    public var modified: Timestamp?
    public var lastUsed: Timestamp?
    /// When the export says the current password was set, where it keeps no history to tell
    /// (`Credential.importedSecretSet`).
    public var passwordSet: Timestamp?
    /// Earlier passwords with when each stopped being current (Bitwarden, KeePass).
    public var history: [(secret: SecretReference, replaced: Timestamp)] = []
    /// Earlier values of secret fields, by the field's name (Bitwarden's `NAME: value` history
    /// entries, pwtui's `secret field history` column): the history of that field, never notes.
    public var fieldHistory: [(name: String, secret: SecretReference, replaced: Timestamp)] = []

    public init(origin: ImportOrigin) {
        self.origin = origin
    }
}

/// Where an imported entry comes from, for every message about it.
public enum ImportOrigin: Sendable, Equatable, CustomStringConvertible {
    case line(Int)
    case path(String)

    public var description: String {
        switch self {
        case .line(let line): return "line \(line)"
        case .path(let path): return path
        }
    }
}

/// Everything read from one export: the entries, the arena their secrets are in, and what the
/// reader noticed on the way.
public final class ImportBatch: @unchecked Sendable {
    // @unchecked: the arena is a class, used by one thread at a time (read, then imported).
    public let format: ImportFormat
    /// The protected arena the entries' secrets are in: the reader's, holding every field it
    /// read, until `keepOnlySecrets` moves the secrets into one of their own.
    public private(set) var secrets: SecretArena
    public internal(set) var entries: [ImportedEntry] = []
    public internal(set) var warnings: [String] = []
    /// Entries that could not be read (a row of the wrong width, an unreadable store entry);
    /// the import refuses them all unless told to skip them.
    public internal(set) var rejected: [ImportFailure] = []

    init(format: ImportFormat, secrets: SecretArena) {
        self.format = format
        self.secrets = secrets
    }

    /// A non-secret field's text.
    func text(_ reference: SecretReference) -> String {
        secrets.withBytes(of: reference) { String(decoding: $0, as: UTF8.self) }
    }

    /// Moves the secrets the entries refer to (passwords, one-time keys, secret fields and the
    /// histories of both) into a new arena of their size, and lets the reader's arena go. That
    /// one holds every field of the file, the notes and the other text too, which the entries
    /// already hold as strings once read: for a 100 MB CSV, 100 MB held through the whole plan
    /// for the few megabytes of passwords (issue 23). Called once the entries are complete,
    /// before anything else refers to the arena; every reference an entry holds is rewritten.
    func keepOnlySecrets() throws {
        var total = 0
        for entry in entries {
            total += (entry.password?.count ?? 0) + (entry.oneTimeKey?.count ?? 0)
            for field in entry.secretFields { total += field.value.count }
            for previous in entry.history { total += previous.secret.count }
            for previous in entry.fieldHistory { total += previous.secret.count }
        }
        let read = secrets
        // Room for what the conversion stores later (parsed one-time keys): a few pages.
        let kept = try SecretArena(capacity: total + 4096)
        func move(_ reference: SecretReference) throws -> SecretReference {
            try read.withBytes(of: reference) { bytes in try kept.store(bytes) }
        }
        // In place: a copy of the entries would hold them twice while it is made.
        for index in entries.indices {
            if let password = entries[index].password { entries[index].password = try move(password) }
            if let key = entries[index].oneTimeKey { entries[index].oneTimeKey = try move(key) }
            for field in entries[index].secretFields.indices {
                entries[index].secretFields[field].value = try move(entries[index].secretFields[field].value)
            }
            for previous in entries[index].history.indices {
                entries[index].history[previous].secret = try move(entries[index].history[previous].secret)
            }
            for previous in entries[index].fieldHistory.indices {
                entries[index].fieldHistory[previous].secret = try move(entries[index].fieldHistory[previous].secret)
            }
        }
        secrets = kept
    }
}
