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

    public init(format: ExportFormat) {
        self.format = format
    }

    public mutating func write(_ vault: Vault) throws -> SecureBytes {
        var output = try SecureBytes(capacity: 64 * 1024 + vault.contents.secrets.byteCount * 2)
        let credentials = vault.contents.credentials.sorted { ($0.created, $0.id.uuidString) < ($1.created, $1.id.uuidString) }
        switch format {
        case .csv:
            try CSVWriter.row(["title", "services", "username", "password", "notes", "otpauth", "created", "modified"].map(Field.text), to: &output)
            for credential in credentials {
                try CSVWriter.row([.text(credential.title), .text(credential.services.map(\.text).joined(separator: "\n")),
                                   .text(credential.username), .secret(credential.secret), .text(credential.notes),
                                   oneTimeField(credential), .text(credential.created.description),
                                   .text(credential.modified.description)], to: &output, vault: vault)
            }
        case .keepassxcCSV:
            try CSVWriter.row(["Group", "Title", "Username", "Password", "URL", "Notes", "TOTP", "Icon", "Last Modified", "Created"]
                .map(Field.text), to: &output)
            for credential in credentials {
                var notes = credential.notes
                let others = credential.services.dropFirst().map { "URL: \($0.text)" }
                if !others.isEmpty {
                    notesServices += 1
                    notes += (notes.isEmpty ? "" : "\n\n") + others.joined(separator: "\n")
                }
                try CSVWriter.row([.text("Root"), .text(credential.title), .text(credential.username), .secret(credential.secret),
                                   .text(credential.services.first?.text ?? ""), .text(notes), oneTimeField(credential),
                                   .text("0"), .text(credential.modified.description), .text(credential.created.description)],
                                  to: &output, vault: vault)
            }
        case .bitwardenJSON:
            try BitwardenJSONWriter.write(credentials, of: vault, to: &output)
        }
        return output
    }

    private func oneTimeField(_ credential: Credential) -> Field {
        credential.totp.map { .oneTimeKey($0, label: credential.displayTitle) } ?? .text("")
    }

    /// One value of an export: text, or a secret read from the vault's arena where it lies.
    enum Field {
        case text(String)
        case secret(SecretReference)
        case oneTimeKey(OneTimeKey, label: String)

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
                if case .text = field, CSVFormulaGuard.needsGuard(bytes) { try output.append(UInt8(ascii: "'")) }
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
