import Foundation
import VaultModel
import ServiceMatching
import Platform

/// Which credential a command wants without showing a list: one id, or the best match for some
/// services — optionally only that account's, and only in some tiers. The agent answers the same
/// value against the vault it holds, so a question gets one answer wherever the vault is open.
struct CredentialQuery {
    /// The tiers that may answer with nobody to look: a credential for this host or a parent
    /// domain of it. A same-site or equivalent credential is another host's password.
    static let hostLevel: Set<MatchKind> = [.exactURL, .pathPrefix, .sameHost, .parentDomain, .wildcard]
    /// The tiers that name this very host: what git's store and erase may act on.
    static let sameHost: Set<MatchKind> = [.exactURL, .pathPrefix, .sameHost]

    var id: String?
    var services: [ServiceIdentifier] = []
    var username: String?
    var tiers: Set<MatchKind>?
    /// Credentials not to answer with while their secret is still the one set at that time: the
    /// passwords a host rejected (`GitRejections`).
    var rejected: [UUID: Timestamp] = [:]

    /// The answer in `vault`; a match for services is recorded in the use history.
    /// `suffixes`: a list already loaded (the agent keeps one).
    func answer(in vault: Vault, global: GlobalOptions, suffixes: PublicSuffixList? = nil) throws -> Credential {
        if let id { return try vault.credential(id: id) }
        let context = global.rankingContext(for: vault, suffixes: suffixes)
        guard let best = CredentialRanking.matches(vault.contents.credentials, for: services, context: context).first(where: accepts)
        else { throw VaultError.noMatch("no credential matches \(services.map(\.text).joined(separator: " "))") }
        global.recordUse(of: best.credential, for: services[0], in: context)
        return best.credential
    }

    func accepts(_ ranked: RankedCredential) -> Bool {
        guard username == nil || ranked.credential.username == username else { return false }
        if let rejectedSecret = rejected[ranked.credential.id], rejectedSecret == ranked.credential.secretSet { return false }
        guard let tiers else { return true }
        return ranked.match.map(tiers.contains) ?? false
    }

    // MARK: On the agent's socket

    var fields: [String: Any] {
        var fields: [String: Any] = ["services": services.map(\.text)]
        fields["id"] = id
        fields["username"] = username
        fields["tiers"] = tiers.map { $0.map(\.rawValue).sorted() }
        if !rejected.isEmpty {
            fields["rejected"] = Dictionary(uniqueKeysWithValues: rejected.map { ($0.key.uuidString.lowercased(), Int($0.value.millisecondsSince1970)) })
        }
        return fields
    }

    init(id: String? = nil, services: [ServiceIdentifier] = [], username: String? = nil, tiers: Set<MatchKind>? = nil,
         rejected: [UUID: Timestamp] = [:]) {
        self.id = id
        self.services = services
        self.username = username
        self.tiers = tiers
        self.rejected = rejected
    }

    init(fields: [String: Any]) throws {
        id = fields["id"] as? String
        services = try (fields["services"] as? [String] ?? []).map { try ServiceIdentifier($0) }
        username = fields["username"] as? String
        tiers = (fields["tiers"] as? [String]).map { Set($0.compactMap(MatchKind.init(rawValue:))) }
        for (id, time) in fields["rejected"] as? [String: Int] ?? [:] {
            guard let id = UUID(uuidString: id) else { continue }
            rejected[id] = Timestamp(millisecondsSince1970: Int64(time))
        }
        guard id != nil || !services.isEmpty else { throw AgentError.protocolError("a query names neither an id nor services") }
    }
}
