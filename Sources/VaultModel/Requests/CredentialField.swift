import Platform
import ServiceMatching
import VaultCrypto

/// What of a chosen credential goes to stdout (`get --field`, `pick --output`). The password is
/// written from protected memory with write(2); JSON escapes it from protected memory into
/// protected memory, and has the one-time code when the credential has an authenticator key.
public enum CredentialField: String, CaseIterable, Sendable, Codable {
    case password, username, both, json
    /// The one-time code of the credential's authenticator key, now.
    case totp

    /// What `write` prints, in protected memory (the agent sends it over its socket).
    public func render(_ credential: Credential, from vault: Vault) throws -> SecureBytes {
        var output = try SecureBytes(capacity: 256)
        switch self {
        case .password:
            try vault.withSecret(credential.secret) { try output.append(contentsOf: $0) }
            try Self.append("\n", to: &output)
        case .username:
            try Self.append(credential.username + "\n", to: &output)
        case .both:
            try Self.append(credential.username + "\n", to: &output)
            try vault.withSecret(credential.secret) { try output.append(contentsOf: $0) }
            try Self.append("\n", to: &output)
        case .json:
            try Self.append("{\"id\":\(JSONText.quote(credential.id.uuidString.lowercased())),"
                + "\"title\":\(JSONText.quote(credential.displayTitle)),"
                + "\"username\":\(JSONText.quote(credential.username)),"
                + "\"services\":[\(credential.services.map { JSONText.quote($0.text) }.joined(separator: ","))],"
                + "\"password\":", to: &output)
            try vault.withSecret(credential.secret) { try JSONText.appendQuoted($0, to: &output) }
            if credential.totp != nil {
                try Self.append(",\"totp\":", to: &output)
                let timed = try vault.oneTimeCode(of: credential)
                try timed.code.withUnsafeBytes { try JSONText.appendQuoted($0, to: &output) }
            }
            try Self.append("}\n", to: &output)
        case .totp:
            let timed = try vault.oneTimeCode(of: credential)
            try timed.code.withUnsafeBytes { try output.append(contentsOf: $0) }
            try Self.append("\n", to: &output)
        }
        return output
    }

    /// A rendered `password` or `username` without the newline `render` ends it with: what goes
    /// to the clipboard or into git's `password=` line.
    public static func value(ofRendered bytes: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: bytes.dropLast(bytes.last == 0x0A ? 1 : 0))
    }

    private static func append(_ text: String, to output: inout SecureBytes) throws {
        try Array(text.utf8).withUnsafeBytes { try output.append(contentsOf: $0) }
    }
}
