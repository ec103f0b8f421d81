import VaultModel

/// How confirmations and reports name a credential, never with its secret: its title, then what
/// it has of a username and services in parentheses — nothing empty ("Title (, )" for a note
/// without either was what messages said: issue 38).
enum IdentitySummary {
    static func text(title: String, username: String, services: [String] = []) -> String {
        let parts = [username, services.joined(separator: " ")].filter { !$0.isEmpty }
        return parts.isEmpty ? title : "\(title) (\(parts.joined(separator: ", ")))"
    }
}

extension IdentityStore.Identity {
    /// "Title (user, service service)" for confirmations and reports.
    var summary: String { IdentitySummary.text(title: displayTitle, username: username, services: services) }

    /// "Title (user)", or the title alone without a username.
    var titleAndUsername: String { IdentitySummary.text(title: displayTitle, username: username) }
}

extension Credential {
    /// "Title (user)", or the title alone without a username.
    var titleAndUsername: String { IdentitySummary.text(title: displayTitle, username: username) }
}
