import ServiceMatching
import VaultModel

/// What `pwtui totp` asks for: the best match for the services among the credentials that have
/// an authenticator key (a second account of the site without one is no answer), or one
/// credential by id. Like `show`, a single argument that an id starts with names that credential;
/// the ids come from the identity store, so telling them apart asks for no master password (a
/// hex-looking host such as `cafe` stays a service when no id starts with it).
public enum OneTimeCodeQuery {
    public static func query(services: [String], id: String?, in context: CommandContext) throws -> CredentialQuery {
        if let id { return CredentialQuery(id: id) }
        if services.count == 1, let named = credentialID(startingWith: services[0], in: context) {
            return CredentialQuery(id: named)
        }
        return CredentialQuery(services: try services.map { try ServiceIdentifier($0) }, withOneTimeKey: true)
    }

    /// The id of the one credential whose id starts with `text`, when it could be an id prefix.
    static func credentialID(startingWith text: String, in context: CommandContext) -> String? {
        let prefix = text.lowercased()
        guard prefix.count >= CredentialReference.shortestIDPrefix,
            prefix.allSatisfy({ $0.isHexDigit || $0 == "-" }),
            let store = try? context.currentIdentityStore()
        else { return nil }
        let named = store.identities.filter { $0.id.uuidString.lowercased().hasPrefix(prefix) }
        return named.count == 1 ? named[0].id.uuidString : nil
    }
}
