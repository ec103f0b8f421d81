import FoundationEssentials
import Platform
import VaultCrypto
import VaultModel

/// Writes a vault's credentials as an export, whole, in protected memory: the output holds
/// every password, so it is built where they are (never a `String`) and handed to the caller
/// to write to its file.
///
/// Each format is written so that `pwtui import` reads it back to the same credentials (the
/// round-trip tests hold it to that): pwtui's CSV and Bitwarden's JSON field for field, with
/// all services, the one-time key as an `otpauth://` URI and the times to the millisecond;
/// KeePassXC's CSV has one URL column, so the other services are written in the notes as
/// `URL: ...` lines (and `notesServices` counts the credentials that happened to).
public struct ExportWriter {
    public let format: ExportFormat
    /// How many credentials had services that only fit in the notes (KeePassXC's CSV).
    public private(set) var notesServices = 0
    /// How many credentials had secret fields that only fit in the notes (KeePassXC's CSV).
    public private(set) var notesFields = 0

    /// When each credential was last used (the local use history), written where the format has
    /// a place for it (pwtui's CSV), so that an export imported again ranks as before.
    public var lastUsed: (UUID) -> Timestamp? = { _ in nil }

    public init(format: ExportFormat) {
        self.format = format
    }

    public mutating func write(_ vault: Vault) throws -> SecureBytes {
        var output = try SecureBytes(capacity: 64 * 1024 + vault.contents.secrets.byteCount * 2)
        let credentials = vault.contents.credentials.sorted {
            ($0.created, $0.id.uuidString) < ($1.created, $1.id.uuidString)
        }
        switch format {
        case .csv:
            try CSVWriter.row(
                [
                    "title", "services", "username", "password", "notes", "otpauth", "created", "modified", "fields",
                    "secret fields", "last used", "secret field history", "kind",
                ].map(Field.text), to: &output)
            for credential in credentials {
                try CSVWriter.row(
                    [
                        .text(credential.title), .text(credential.services.map(\.text).joined(separator: "\n")),
                        .text(credential.username), .secret(credential.secret), .text(credential.notes),
                        oneTimeField(credential), .text(credential.created.description),
                        .text(credential.modified.description), .text(Self.textFieldLines(credential)),
                        .secretFields(credential.fields.filter(\.isSecret)),
                        .text(lastUsed(credential.id)?.description ?? ""),
                        .secretFieldHistory(credential.fields.filter { !$0.history.isEmpty }),
                        .text(credential.kind.token),
                    ], to: &output, vault: vault)
            }
        case .keepassxcCSV:
            try CSVWriter.row(
                ["Group", "Title", "Username", "Password", "URL", "Notes", "TOTP", "Icon", "Last Modified", "Created"]
                    .map(Field.text), to: &output)
            for credential in credentials {
                var notes = credential.notes
                // KeePassXC's CSV has no column for fields: text ones go in the notes as
                // `name: value` lines (secret ones too, below: the export is plaintext whole).
                let fieldLines = Self.textFieldLines(credential)
                if !fieldLines.isEmpty { notes += (notes.isEmpty ? "" : "\n\n") + fieldLines }
                let others = credential.services.dropFirst().map { "URL: \($0.text)" }
                if !others.isEmpty {
                    notesServices += 1
                    notes += (notes.isEmpty ? "" : "\n\n") + others.joined(separator: "\n")
                }
                let secretFields = credential.fields.filter(\.isSecret)
                if !secretFields.isEmpty { notesFields += 1 }
                try CSVWriter.row(
                    [
                        .text("Root"), .text(credential.title), .text(credential.username), .secret(credential.secret),
                        .text(credential.services.first?.text ?? ""),
                        secretFields.isEmpty ? .text(notes) : .notesWithSecretFields(notes, secretFields),
                        oneTimeField(credential),
                        .text("0"), .text(credential.modified.description), .text(credential.created.description),
                    ],
                    to: &output, vault: vault)
            }
        case .bitwardenJSON:
            try BitwardenJSONWriter.write(credentials, of: vault, to: &output)
        }
        return output
    }

    /// A credential's text fields as `name: value` lines (a value's line breaks become spaces:
    /// one line per field is what reads back).
    static func textFieldLines(_ credential: Credential) -> String {
        credential.fields.compactMap { field in field.text.map { "\(field.name): \(oneLine($0))" } }.joined(
            separator: "\n")
    }

    static func oneLine(_ text: String) -> String {
        String(text.map { $0.isNewline ? " " : $0 })
    }

    private func oneTimeField(_ credential: Credential) -> Field {
        credential.totp.map { .oneTimeKey($0, label: credential.displayTitle) } ?? .text("")
    }

    /// One value of an export: text, or a secret read from the vault's arena where it lies.
    enum Field {
        case text(String)
        case secret(SecretReference)
        case oneTimeKey(OneTimeKey, label: String)
        /// Secret fields as `name: value` lines, the values from the vault's arena.
        case secretFields([NamedField])
        /// Notes, then a blank line and the secret fields' lines.
        case notesWithSecretFields(String, [NamedField])
        /// Secret fields' earlier values, `TIME NAME: value` lines (the time they were replaced, ISO
        /// 8601, first: a name may hold spaces, a time never does).
        case secretFieldHistory([NamedField])

        /// Whether the cell is text a spreadsheet might run (not a password, key or secret value).
        var isGuarded: Bool {
            switch self {
            case .text, .notesWithSecretFields: return true
            case .secret, .oneTimeKey, .secretFields, .secretFieldHistory: return false
            }
        }

        /// Lends the field's bytes.
        func withBytes<Result>(_ vault: Vault?, _ body: (UnsafeRawBufferPointer) throws -> Result) throws -> Result {
            switch self {
            case .text(var text):
                return try text.withUTF8 { try body(UnsafeRawBufferPointer($0)) }
            case .secret(let reference):
                guard let vault else { throw VaultError.invalidRequest("a secret field needs its vault") }
                return try vault.withSecret(reference, body)
            case .oneTimeKey(let key, let label):
                guard let vault else { throw VaultError.invalidRequest("a secret field needs its vault") }
                return try vault.withSecret(key.key) { bytes in
                    let uri = try OTPAuth.uri(key: bytes, parameters: key.parameters, label: label)
                    return try uri.withUnsafeBytes(body)
                }
            case .secretFields(let fields):
                guard let vault else { throw VaultError.invalidRequest("a secret field needs its vault") }
                var lines = try SecureBytes(capacity: 256)
                try Self.appendLines(fields, from: vault, to: &lines)
                return try lines.withUnsafeBytes(body)
            case .secretFieldHistory(let fields):
                guard let vault else { throw VaultError.invalidRequest("a secret field needs its vault") }
                var lines = try SecureBytes(capacity: 256)
                for field in fields {
                    for previous in field.history {
                        if lines.count > 0 { try lines.append(utf8: "\n") }
                        try lines.append(utf8: "\(previous.replaced.description) \(field.name): ")
                        try Self.appendOneLine(previous.secret, from: vault, to: &lines)
                    }
                }
                return try lines.withUnsafeBytes(body)
            case .notesWithSecretFields(let notes, let fields):
                guard let vault else { throw VaultError.invalidRequest("a secret field needs its vault") }
                var text = try SecureBytes(capacity: 256 + notes.utf8.count)
                if !notes.isEmpty { try text.append(utf8: notes + "\n\n") }
                try Self.appendLines(fields, from: vault, to: &text)
                return try text.withUnsafeBytes(body)
            }
        }

        /// `name: value` lines, built in protected memory (line breaks in a value become spaces).
        private static func appendLines(_ fields: [NamedField], from vault: Vault, to output: inout SecureBytes) throws
        {
            for (index, field) in fields.enumerated() {
                guard let secret = field.secret else { continue }
                if index > 0 { try output.append(utf8: "\n") }
                try output.append(utf8: "\(field.name): ")
                try appendOneLine(secret, from: vault, to: &output)
            }
        }

        /// A secret's bytes with its line breaks made spaces: one line per value is what reads back.
        private static func appendOneLine(_ secret: SecretReference, from vault: Vault, to output: inout SecureBytes)
            throws
        {
            try vault.withSecret(secret) { bytes in
                for byte in bytes { try output.append(byte == 0x0A || byte == 0x0D ? UInt8(ascii: " ") : byte) }
            }
        }
    }
}

/// RFC 4180 rows, every field quoted (quotes doubled), LF between rows as KeePassXC writes them;
/// text cells guarded against spreadsheet formulas (`CSVFormulaGuard`).
enum CSVWriter {
    static func row(_ fields: [ExportWriter.Field], to output: inout SecureBytes, vault: Vault? = nil) throws {
        for (index, field) in fields.enumerated() {
            if index > 0 { try output.append(UInt8(ascii: ",")) }
            try output.append(UInt8(ascii: "\""))
            try field.withBytes(vault) { bytes in
                if field.isGuarded, CSVFormulaGuard.needsGuard(bytes) { try output.append(UInt8(ascii: "'")) }
                for byte in bytes {
                    if byte == UInt8(ascii: "\"") { try output.append(byte) }
                    try output.append(byte)
                }
            }
            try output.append(UInt8(ascii: "\""))
        }
        try output.append(0x0A)
    }
}
