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
    public let secrets: SecretArena
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
}
