import FoundationEssentials
import Platform
import ServiceMatching
import TUI
import UnicodeText
import VaultCrypto
import VaultModel

/// `show` and `history` as text or JSON, rendered where the vault is open (here, or in the
/// agent) into protected memory: a revealed password goes from the vault's arena into it and
/// out with write(2), never through a `String` (JSON escapes it there, `JSONText.appendQuoted`).
/// Unrevealed, every password (and every secret field) is `CredentialDetailScreen.mask`, eight
/// dots whatever its length.
extension CredentialView {
    func render(_ credential: Credential, from vault: Vault, lastUsed: Timestamp?) throws -> SecureBytes {
        // An SSH key's secret is its private key: never revealed here (docs/ssh.md).
        var view = self
        if credential.kind == .sshKey { view.reveal = false }
        var output = try SecureBytes(capacity: 512)
        switch (kind, format) {
        case (.details, .text): try view.detailsText(credential, lastUsed: lastUsed, from: vault, into: &output)
        case (.details, .json): try view.detailsJSON(credential, lastUsed: lastUsed, from: vault, into: &output)
        case (.history, _): try view.history(credential, from: vault, into: &output)
        }
        return output
    }

    private func detailsText(
        _ credential: Credential, lastUsed: Timestamp?, from vault: Vault, into output: inout SecureBytes
    ) throws {
        func field(_ label: String, _ values: [String]) throws {
            for (index, value) in values.enumerated() {
                let name = index == 0 ? label : ""
                try output.append(
                    utf8: "  " + name + String(repeating: " ", count: 12 - name.count)
                        + PrintableText.escaped(value) + "\n")
            }
        }
        try output.append(utf8: PrintableText.escaped(credential.displayTitle) + "\n")
        try field("id", [credential.id.uuidString.lowercased()])
        if credential.kind != .login { try field("kind", [credential.kind.name]) }
        try field("username", [credential.username])
        let shortID = credential.id.uuidString.lowercased().prefix(8)
        try output.append(utf8: credential.kind == .sshKey ? "  private key " : "  password    ")
        if credential.kind == .sshKey {
            // Never revealed here, --reveal or not: say where it is written out instead.
            try output.append(
                utf8: CredentialDetailScreen.mask
                    + "  (never shown; \(command) ssh export --private \(shortID) writes it)\n")
        } else if credential.secret.count == 0 {
            // A note, a card or an identity made by hand has no password (issue 38).
            try output.append(utf8: "none\n")
        } else if reveal {
            try vault.withSecret(credential.secret) { try output.append(contentsOf: $0) }
            try output.append(utf8: "\n")
        } else {
            try output.append(utf8: CredentialDetailScreen.mask + "  (--reveal shows it)\n")
        }
        // Whether it makes one-time codes: nothing else in show said so (issue 38).
        try field(
            "totp",
            [
                credential.totp.map {
                    "an authenticator key (\($0.parameters.digits) digits every \($0.parameters.period) s: \(command) totp \(shortID))"
                } ?? "none"
            ])
        try field(
            "services", credential.services.isEmpty ? ["none: an item without a site"] : credential.services.map(\.text)
        )
        if !credential.allowedPrograms.isEmpty {
            try field("given to", [credential.allowedPrograms.joined(separator: ", ")])
        }
        // Named fields, one a line; a secret one masked like the password unless revealed.
        for (index, named) in credential.fields.enumerated() {
            let label = index == 0 ? "fields" : ""
            try output.append(
                utf8: "  " + label + String(repeating: " ", count: 12 - label.count)
                    + PrintableText.escaped(named.name) + ": ")
            switch named.value {
            case .text(let text):
                try output.append(utf8: PrintableText.escaped(text))
            case .secret(let secret) where reveal:
                try vault.withSecret(secret) { try output.append(contentsOf: $0) }
            case .secret:
                try output.append(utf8: CredentialDetailScreen.mask)
            }
            try output.append(utf8: "\n")
        }
        try field("created", [credential.created.minuteText])
        try field("modified", [credential.modified.minuteText])
        try field("last used", [lastUsed?.minuteText ?? "never here"])
        if !credential.notes.isEmpty {
            try field(
                "notes", credential.notes.split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
        }
        let previous = credential.history.count
        let fieldValues = credential.fields.reduce(0) { $0 + $1.history.count }
        var counts: [String] = []
        if previous > 0 { counts.append("\(previous) previous password\(previous == 1 ? "" : "s")") }
        if fieldValues > 0 { counts.append("\(fieldValues) earlier field value\(fieldValues == 1 ? "" : "s")") }
        try field(
            "history",
            [
                counts.isEmpty
                    ? "no previous passwords"
                    : counts.joined(separator: ", ") + " (\(command) history \(shortID))"
            ])
    }

    private func detailsJSON(
        _ credential: Credential, lastUsed: Timestamp?, from vault: Vault, into output: inout SecureBytes
    ) throws {
        let history = credential.previousSecrets.enumerated().map { index, entry in
            "{\"number\":\(index + 1),\"replaced\":\(JSONText.quote(entry.replaced.description))}"
        }
        try output.append(
            utf8: "{\"id\":\(JSONText.quote(credential.id.uuidString.lowercased())),"
                + "\"title\":\(JSONText.quote(credential.displayTitle)),"
                + "\"kind\":\(JSONText.quote(credential.kind == .login ? "login" : credential.kind.token)),"
                + "\"username\":\(JSONText.quote(credential.username)),"
                + "\"services\":[\(credential.services.map { JSONText.quote($0.text) }.joined(separator: ","))],"
                + "\"allowedPrograms\":[\(credential.allowedPrograms.map(JSONText.quote).joined(separator: ","))],"
                + "\"notes\":\(JSONText.quote(credential.notes)),"
                + "\"created\":\(JSONText.quote(credential.created.description)),"
                + "\"modified\":\(JSONText.quote(credential.modified.description)),"
                + "\"lastUsed\":\(lastUsed.map { JSONText.quote($0.description) } ?? "null"),"
                + "\"totp\":\(credential.totp != nil),"
                + "\"history\":[\(history.joined(separator: ","))],"
                + "\"fields\":[")
        for (index, named) in credential.fields.enumerated() {
            try output.append(
                utf8: (index == 0 ? "" : ",")
                    + "{\"name\":\(JSONText.quote(named.name)),\"secret\":\(named.isSecret),\"value\":")
            switch named.value {
            case .text(let text): try output.append(utf8: JSONText.quote(text))
            case .secret(let secret) where reveal:
                try vault.withSecret(secret) { try JSONText.appendQuoted($0, to: &output) }
            case .secret: try output.append(utf8: "null")
            }
            try output.append(utf8: "}")
        }
        try output.append(utf8: "],\"password\":")
        if reveal {
            try vault.withSecret(credential.secret) { try JSONText.appendQuoted($0, to: &output) }
        } else {
            try output.append(utf8: "null")
        }
        try output.append(utf8: "}\n")
    }

    /// "1  2026-11-20 10:00 UTC  ••••••••", one line per previous password, newest first; then
    /// "field PIN  1  2026-11-20 10:00 UTC  ••••••••" for each earlier value of a secret field
    /// (kept like the password's, so shown like them). Only password lines start with a digit.
    private func history(_ credential: Credential, from vault: Vault, into output: inout SecureBytes) throws {
        func line(_ entry: PreviousSecret, _ start: String) throws {
            try output.append(utf8: start + "\(entry.replaced.minuteText)  ")
            if reveal {
                try vault.withSecret(entry.secret) { try output.append(contentsOf: $0) }
            } else {
                try output.append(utf8: CredentialDetailScreen.mask)
            }
            try output.append(utf8: "\n")
        }
        for (index, entry) in credential.previousSecrets.enumerated() { try line(entry, "\(index + 1)  ") }
        for field in credential.fields {
            for (index, entry) in field.previousValues.enumerated() {
                try line(entry, "field \(PrintableText.escaped(field.name))  \(index + 1)  ")
            }
        }
    }

}
