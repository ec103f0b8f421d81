import ArgumentParser
import VaultCrypto
import VaultModel

/// What of a chosen credential goes to stdout (`get --field`, `pick --output`). The password is
/// written from protected memory with write(2); JSON escapes it from protected memory into
/// protected memory.
enum CredentialField: String, ExpressibleByArgument, CaseIterable {
    case password, username, both, json

    func write(_ credential: Credential, from vault: Vault) throws {
        switch self {
        case .password:
            try vault.withSecret(credential.secret) { try StandardOutput.write($0) }
            try StandardOutput.write("\n")
        case .username:
            try StandardOutput.write(credential.username + "\n")
        case .both:
            try StandardOutput.write(credential.username + "\n")
            try CredentialField.password.write(credential, from: vault)
        case .json:
            var output = try SecureBytes(capacity: 512)
            let head = "{\"id\":\(JSONText.quote(credential.id.uuidString.lowercased())),"
                + "\"title\":\(JSONText.quote(credential.displayTitle)),"
                + "\"username\":\(JSONText.quote(credential.username)),"
                + "\"services\":[\(credential.services.map { JSONText.quote($0.text) }.joined(separator: ","))],"
                + "\"password\":"
            try Array(head.utf8).withUnsafeBytes { try output.append(contentsOf: $0) }
            try vault.withSecret(credential.secret) { try JSONText.appendQuoted($0, to: &output) }
            try Array("}\n".utf8).withUnsafeBytes { try output.append(contentsOf: $0) }
            try StandardOutput.write(output)
        }
    }
}
