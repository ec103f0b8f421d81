import FoundationEssentials
import Platform
import ServiceMatching

/// Which credential a command wants without showing a list: one id, or the best match for some
/// services — optionally only that account's, and only in some tiers. The agent answers the same
/// value against the vault it holds, so a question gets one answer wherever the vault is open.
public struct CredentialQuery: Sendable, Equatable {
    /// A credential for this host or a parent domain of it: what a person may choose for a host
    /// (git's `store` confirms such a choice). A same-site or equivalent credential is another
    /// host's password.
    public static let hostLevel: Set<MatchKind> = [.exactURL, .pathPrefix, .sameHost, .parentDomain, .wildcard]
    /// The tiers that name this very host: what git's helper answers with nobody to look, and
    /// what its store and erase act on.
    public static let sameHost: Set<MatchKind> = [.exactURL, .pathPrefix, .sameHost]

    public var id: String?
    /// A credential's title (without case): how an item without a site is asked for (format 1.3).
    public var title: String?
    public var services: [ServiceIdentifier]
    public var username: String?
    public var tiers: Set<MatchKind>?
    /// Credentials not to answer with while their secret is still the one set at that time: the
    /// passwords a host rejected (`GitRejections`).
    public var rejected: [UUID: Timestamp]
    /// Only credentials with an authenticator key (`totp SERVICE`: the best match that can make
    /// a code, not the best match that cannot).
    public var withOneTimeKey: Bool
    /// Who asks: a credential bound to programs (`Credential.allowedPrograms`) answers only when
    /// one of them is in this chain. Never coded: the agent sets it from the connection's peer,
    /// never from what a client says; nil (a vault opened in this process): this process's own.
    public var askingProgram: ProcessChain?

    public init(
        id: String? = nil, title: String? = nil, services: [ServiceIdentifier] = [], username: String? = nil,
        tiers: Set<MatchKind>? = nil, rejected: [UUID: Timestamp] = [:], withOneTimeKey: Bool = false
    ) {
        self.id = id
        self.title = title
        self.services = services
        self.username = username
        self.tiers = tiers
        self.rejected = rejected
        self.withOneTimeKey = withOneTimeKey
    }

    /// The query for `field` of its answer: a one-time code can come only from a credential with
    /// an authenticator key, so `get SITE --field totp` passes over a second account without
    /// one, as `totp SITE` does (one rule for both, here and in the agent).
    public func asking(for field: CredentialField) -> CredentialQuery {
        var query = self
        if field == .totp { query.withOneTimeKey = true }
        return query
    }

    /// The credential this query names in `vault` (the one with the id, else the best match for
    /// the services that the query accepts), and how many accepted credentials, itself included,
    /// were equally good (`RankedCredential.isEquallyGood`): more than one means the use history
    /// chose. An id names one credential: 1. Recording the use is the caller's (`CommandContext`).
    ///
    /// A credential bound to other programs than the asking one is passed over as if it did not
    /// match (an unbound one for the same site answers instead); when it alone would have
    /// answered, the refusal names its binding and the asking chain.
    public func rankedAnswer(in vault: Vault, context: RankingContext) throws -> (credential: Credential, tied: Int) {
        if let id {
            let credential = try vault.credential(id: id)
            if let askingProgram { try credential.requireGiven(to: askingProgram) }
            return (credential, 1)
        }
        do {
            return try matchedAnswer(in: vault, context: context)
        } catch {
            // (A full catch with a guard: `catch … where` crashes Swift 6.3.1, PITFALLS.md.)
            guard case VaultError.noMatch = error, let askingProgram else { throw error }
            // Would the answer have been a credential bound to other programs? Then say so.
            var anyProgram = self
            anyProgram.askingProgram = nil
            guard let (withheld, _) = try? anyProgram.matchedAnswer(in: vault, context: context) else { throw error }
            try withheld.requireGiven(to: askingProgram)
            throw error
        }
    }

    /// `rankedAnswer` for a title or services.
    private func matchedAnswer(in vault: Vault, context: RankingContext) throws -> (credential: Credential, tied: Int) {
        if let title { return (try Self.titled(title, in: vault, accepting: accepts), 1) }
        // Prepared once, for the filter the index answers and for ranking.
        let prepared = services.map { ServiceMatch.PreparedRequest($0, context) }
        let candidates = vault.hostIndex.positions(passing: HostFilter(prepared: prepared))
        guard
            let (best, tied) = CredentialRanking.best(
                vault.contents.credentials, among: candidates, prepared: prepared, context: context,
                accepting: { accepts($0, match: $1) })
        else {
            if withOneTimeKey {
                // Say which credential would have answered, and how to give it a key.
                var withoutKey = self
                withoutKey.withOneTimeKey = false
                if let (best, _) = try? withoutKey.rankedAnswer(in: vault, context: context) {
                    throw VaultError.noMatch(
                        "no credential for \(services.map(\.text).joined(separator: " ")) has an authenticator key; "
                            + "add one to \(best.displayTitle) with pwtui edit \(best.id.uuidString.lowercased().prefix(8)) --totp"
                    )
                }
            }
            throw VaultError.noMatch(PortMiss.noMatchMessage(for: services, among: vault.contents.credentials))
        }
        return (best.credential, tied)
    }

    /// The one credential titled `title` (without case) that `accepting` takes: none is no match,
    /// several are listed (a title is no id: a guess among them is no answer).
    private static func titled(_ title: String, in vault: Vault, accepting: (Credential) -> Bool) throws -> Credential {
        let wanted = title.lowercased()
        let found = vault.contents.credentials.filter { $0.title.lowercased() == wanted && accepting($0) }
        switch found.count {
        case 1: return found[0]
        case 0:
            // Text with an '@' may be a pasted `user:password@host`: not repeated.
            let shown = title.contains("@") ? "that text" : "'\(title)'"
            throw VaultError.noMatch("no credential matches \(shown) as a service or a title")
        default:
            let ids = found.prefix(5).map { String($0.id.uuidString.lowercased().prefix(8)) }.joined(separator: ", ")
            throw VaultError.invalidRequest(
                "\(found.count) credentials are titled '\(title)' (\(ids)); give one's id with --id")
        }
    }

    public func accepts(_ ranked: RankedCredential) -> Bool {
        ranked.match.map { accepts(ranked.credential, match: $0) } ?? (tiers == nil && accepts(ranked.credential))
    }

    /// `accepts` for a credential that matched with `match`, before it is ranked.
    public func accepts(_ credential: Credential, match: MatchKind) -> Bool {
        withUnsafePointer(to: credential) { accepts($0, match: match) }
    }

    /// `accepts(_:match:)` for a credential where it lies (`CredentialRanking.best` asks it of
    /// every candidate): its fields are read one by one, where passing it whole to a call copies
    /// it first, a dozen references retained and released.
    package func accepts(_ credential: UnsafePointer<Credential>, match: MatchKind) -> Bool {
        accepts(credential) && (tiers?.contains(match) ?? true)
    }

    private func accepts(_ credential: Credential) -> Bool {
        withUnsafePointer(to: credential) { accepts($0) }
    }

    private func accepts(_ credential: UnsafePointer<Credential>) -> Bool {
        guard username == nil || credential.pointee.username == username else { return false }
        if withOneTimeKey, credential.pointee.totp == nil { return false }
        if let rejectedSecret = rejected[credential.pointee.id], rejectedSecret == credential.pointee.secretSet {
            return false
        }
        if let askingProgram, !Credential.allows(credential.pointee.allowedPrograms, askingProgram) { return false }
        return true
    }
}

/// On the agent's socket: services as their texts, parsed again on arrival (the agent trusts no
/// client's parsing); rejections keyed by id.
extension CredentialQuery: Codable {
    private enum CodingKeys: String, CodingKey {
        case id, title, services, username, tiers, rejected, withOneTimeKey
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decodeIfPresent(String.self, forKey: .id)
        title = try container.decodeIfPresent(String.self, forKey: .title)
        services = try container.decode([String].self, forKey: .services).map { try ServiceIdentifier($0) }
        username = try container.decodeIfPresent(String.self, forKey: .username)
        tiers = try container.decodeIfPresent([MatchKind].self, forKey: .tiers).map(Set.init)
        withOneTimeKey = try container.decodeIfPresent(Bool.self, forKey: .withOneTimeKey) ?? false
        rejected = [:]
        for (id, time) in try container.decodeIfPresent([String: Int64].self, forKey: .rejected) ?? [:] {
            guard let id = UUID(uuidString: id) else { continue }
            rejected[id] = Timestamp(millisecondsSince1970: time)
        }
        guard id != nil || title != nil || !services.isEmpty else {
            throw DecodingError.dataCorruptedError(
                forKey: .services, in: container, debugDescription: "a query names neither an id, a title nor services")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(id, forKey: .id)
        try container.encodeIfPresent(title, forKey: .title)
        try container.encode(services.map(\.text), forKey: .services)
        try container.encodeIfPresent(username, forKey: .username)
        try container.encodeIfPresent(tiers.map { $0.sorted { $0.rawValue < $1.rawValue } }, forKey: .tiers)
        if withOneTimeKey { try container.encode(true, forKey: .withOneTimeKey) }
        if !rejected.isEmpty {
            try container.encode(
                Dictionary(
                    uniqueKeysWithValues: rejected.map {
                        ($0.key.uuidString.lowercased(), $0.value.millisecondsSince1970)
                    }),
                forKey: .rejected)
        }
    }
}
