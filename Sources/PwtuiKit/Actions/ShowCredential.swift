import Foundation
import Platform
import ServiceMatching
import TUI
import VaultCrypto
import VaultModel

/// `pwtui show`: one credential whole — what the picker's detail screen shows — on stdout: title,
/// id, username, services, created / modified / last used, notes, how many previous passwords.
/// The password is eight dots unless `reveal`; revealed, it goes from the vault's arena into
/// protected memory and out with write(2), as `get` writes it (JSON escapes it there too).
///
/// The vault is unlocked here: an agent gives identities and passwords, not notes, times or
/// history.
public struct ShowCredential {
    public enum Format: String, CaseIterable, Sendable {
        case text, json
    }

    /// An id (or a unique prefix), a service or a title (`CredentialReference`).
    public var reference: String
    public var reveal: Bool
    public var format: Format

    public init(reference: String, reveal: Bool, format: Format) {
        self.reference = reference
        self.reveal = reveal
        self.format = format
    }

    public func run(in session: Session) throws {
        try StandardOutput.write(try render(in: session))
    }

    /// What `run` writes on stdout, in protected memory.
    public func render(in session: Session) throws -> SecureBytes {
        let vault = try session.openVault()
        let credential = try Self.resolve(reference, in: vault, session: session)
        let lastUsed = UsageHistory.load(from: session.paths.usageFile).lastUsed(credential.id)
        var output = try SecureBytes(capacity: 512)
        switch format {
        case .text: try text(credential, lastUsed: lastUsed, from: vault, into: &output,
                             command: Invocation.current(session.environment).command)
        case .json: try json(credential, lastUsed: lastUsed, from: vault, into: &output)
        }
        return output
    }

    /// The credential `reference` names in the open `vault` (a picker, or 64, when it names several).
    static func resolve(_ reference: String, in vault: Vault, session: Session) throws -> Credential {
        let identity = try CredentialReference(reference).resolve(in: .local(vault, session), session: session)
        guard let credential = vault.contents.credential(withID: identity.id) else {
            throw VaultError.noMatch("no credential with id \(identity.id.uuidString.lowercased())")
        }
        return credential
    }

    private func text(_ credential: Credential, lastUsed: Timestamp?, from vault: Vault, into output: inout SecureBytes,
                      command: String) throws {
        let shortID = credential.id.uuidString.lowercased().prefix(8)
        func field(_ label: String, _ values: [String]) throws {
            for (index, value) in values.enumerated() {
                let name = index == 0 ? label : ""
                try Self.append("  " + name + String(repeating: " ", count: 12 - name.count)
                    + PrintableText.forTerminal(value) + "\n", to: &output)
            }
        }
        try Self.append(PrintableText.forTerminal(credential.displayTitle) + "\n", to: &output)
        try field("id", [credential.id.uuidString.lowercased()])
        try field("username", [credential.username])
        try Self.append("  password    ", to: &output)
        if reveal {
            try vault.withSecret(credential.secret) { try output.append(contentsOf: $0) }
            try Self.append("\n", to: &output)
        } else {
            try Self.append(CredentialDetailScreen.mask + "  (--reveal shows it)\n", to: &output)
        }
        try field("services", credential.services.map(\.text))
        try field("created", [credential.created.minuteText])
        try field("modified", [credential.modified.minuteText])
        try field("last used", [lastUsed?.minuteText ?? "never here"])
        if !credential.notes.isEmpty {
            try field("notes", credential.notes.split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
        }
        let previous = credential.history.count
        try field("history", [previous == 0 ? "no previous passwords"
            : "\(previous) previous password\(previous == 1 ? "" : "s") (\(command) history \(shortID))"])
    }

    private func json(_ credential: Credential, lastUsed: Timestamp?, from vault: Vault, into output: inout SecureBytes) throws {
        let history = credential.previousSecrets.enumerated().map { index, entry in
            "{\"number\":\(index + 1),\"replaced\":\(JSONText.quote(entry.replaced.description))}"
        }
        try Self.append("{\"id\":\(JSONText.quote(credential.id.uuidString.lowercased())),"
            + "\"title\":\(JSONText.quote(credential.displayTitle)),"
            + "\"username\":\(JSONText.quote(credential.username)),"
            + "\"services\":[\(credential.services.map { JSONText.quote($0.text) }.joined(separator: ","))],"
            + "\"notes\":\(JSONText.quote(credential.notes)),"
            + "\"created\":\(JSONText.quote(credential.created.description)),"
            + "\"modified\":\(JSONText.quote(credential.modified.description)),"
            + "\"lastUsed\":\(lastUsed.map { JSONText.quote($0.description) } ?? "null"),"
            + "\"history\":[\(history.joined(separator: ","))],"
            + "\"password\":", to: &output)
        if reveal {
            try vault.withSecret(credential.secret) { try JSONText.appendQuoted($0, to: &output) }
        } else {
            try Self.append("null", to: &output)
        }
        try Self.append("}\n", to: &output)
    }

    static func append(_ text: String, to output: inout SecureBytes) throws {
        try Array(text.utf8).withUnsafeBytes { try output.append(contentsOf: $0) }
    }
}
