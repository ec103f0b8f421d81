import VaultModel

/// How confirmations and reports name a credential, never with its secret.
extension IdentityStore.Identity {
    /// "Title (user, service service)" for confirmations and reports.
    var summary: String { "\(displayTitle) (\(username), \(services.joined(separator: " ")))" }
}
