import Platform
import ServiceMatching
import VaultCrypto

/// What of a chosen credential goes to stdout (`get --field`, `pick --output`). The password is
/// written from protected memory with write(2); JSON escapes it from protected memory into
/// protected memory, and has the one-time code when the credential has an authenticator key.
/// Any other name is one of the credential's named fields (format 1.3), a secret one written
/// from protected memory like the password.
public enum CredentialField: RawRepresentable, Hashable, CaseIterable, Sendable, Codable {
    case password, username, both, json
    /// The one-time code of the credential's authenticator key, now.
    case totp
    /// The named field of that name (without case).
    case named(String)

    /// The standard ones (`--help` lists them); a named field is any other name.
    public static let allCases: [CredentialField] = [.password, .username, .both, .json, .totp]

    public init?(rawValue: String) {
        guard !rawValue.isEmpty else { return nil }
        self = Self.allCases.first { $0.rawValue == rawValue } ?? .named(rawValue)
    }

    public var rawValue: String {
        switch self {
        case .password: return "password"
        case .username: return "username"
        case .both: return "both"
        case .json: return "json"
        case .totp: return "totp"
        case .named(let name): return name
        }
    }

    /// What `write` prints, in protected memory (the agent sends it over its socket).
    public func render(_ credential: Credential, from vault: Vault) throws -> SecureBytes {
        // An SSH key's secret is its private key: the agent signs with it, and only an export
        // (master password asked, never to a terminal) carries it out (docs/ssh.md).
        if credential.kind == .sshKey, [.password, .both, .json].contains(self) {
            throw VaultError.invalidRequest(
                "\(credential.displayTitle) is an SSH key: its private key is used by the agent and never handed out "
                    + "here; `pwtui ssh export \(credential.id.uuidString.lowercased().prefix(8))` prints its public key"
            )
        }
        var output = try SecureBytes(capacity: 256)
        switch self {
        case .password:
            try vault.withSecret(credential.secret) { try output.append(contentsOf: $0) }
            try output.append(utf8: "\n")
        case .username:
            try output.append(utf8: credential.username + "\n")
        case .both:
            try output.append(utf8: credential.username + "\n")
            try vault.withSecret(credential.secret) { try output.append(contentsOf: $0) }
            try output.append(utf8: "\n")
        case .json:
            try output.append(
                utf8: "{\"id\":\(JSONText.quote(credential.id.uuidString.lowercased())),"
                    + "\"title\":\(JSONText.quote(credential.displayTitle)),"
                    + "\"username\":\(JSONText.quote(credential.username)),"
                    + "\"services\":[\(credential.services.map { JSONText.quote($0.text) }.joined(separator: ","))],"
                    + "\"password\":")
            try vault.withSecret(credential.secret) { try JSONText.appendQuoted($0, to: &output) }
            if credential.totp != nil {
                try output.append(utf8: ",\"totp\":")
                let timed = try vault.oneTimeCode(of: credential)
                try timed.code.withUnsafeBytes { try JSONText.appendQuoted($0, to: &output) }
            }
            try output.append(utf8: "}\n")
        case .totp:
            let timed = try vault.oneTimeCode(of: credential)
            try timed.code.withUnsafeBytes { try output.append(contentsOf: $0) }
            try output.append(utf8: "\n")
        case .named(let name):
            guard let field = credential.field(named: name) else {
                let names = credential.fields.map(\.name)
                // A usage error, not "no match": the credential was found, the question names nothing.
                throw VaultError.invalidRequest(
                    "\(credential.displayTitle) has no field '\(name)'; "
                        + (names.isEmpty
                            ? "it has no named fields (--field takes password, username, both, json, totp or a field's name)"
                            : "its fields: \(names.joined(separator: ", "))"))
            }
            switch field.value {
            case .text(let text): try output.append(utf8: text)
            case .secret(let secret): try vault.withSecret(secret) { try output.append(contentsOf: $0) }
            }
            try output.append(utf8: "\n")
        }
        return output
    }

    /// A rendered `password` or `username` without the newline `render` ends it with: what goes
    /// to the clipboard or into git's `password=` line.
    public static func value(ofRendered bytes: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: bytes.dropLast(bytes.last == 0x0A ? 1 : 0))
    }

}
