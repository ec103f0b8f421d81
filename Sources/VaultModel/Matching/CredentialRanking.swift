import Foundation

// Ranking: which credentials answer a request, best first (DESIGN §5).
//
// AutoFill's promise is that the credential you need is the first one offered, and that a
// credential for another site is never offered as a match. So matching is exact and explainable:
// every stored service identifier is compared with every requested one, and the pair falls into
// one tier, from the most to the least specific:
//
//     exact URL      the stored URL is the requested URL (scheme, host, port, path)
//     path prefix    the stored URL's path is a prefix of the requested path, on a '/' boundary
//     same host      the same host (and port, when either names one)
//     parent domain  a bare stored domain of which the requested host is a subdomain
//     wildcard       `*.d` and the requested host is a strict subdomain of d
//                    (neither when the stored domain is itself a public suffix: `github.io`)
//     same site      the same registrable domain, per the Public Suffix List
//     equivalent     domains the user declared equivalent (amazon.com, amazon.co.uk)
//     none           shown only with "show all"
//
// Across every tier two rules hold: an https credential is never offered to an http request, and
// a stored port must match (a port named on either side must be the one the other side uses).
// Hosts compare whole labels, so `box.com` never matches `dropbox.com`; addresses and single-label
// hosts get no parent-domain, wildcard or same-site matches.
//
// A credential takes its best pair. Pairs compare by tier first; within a tier, a match for an
// earlier requested identifier (which the caller lists most specific first) beats a match for a
// later one, and a parent domain with more labels beats a shorter one. A weak match for the first
// identifier does not beat an exact match for the second: a tier says more than a position.
// Ties between credentials go to the identity rank (higher first), then the last use for this
// service (more recent first), then the use count, then the title, and finally the id, so the
// order is deterministic and does not depend on the order of the vault.
//
// Cost: for each credential and service, a handful of byte comparisons on ASCII hosts; the
// Public Suffix List is consulted only for hosts that share the requested registrable domain as a
// suffix, and those lookups are cached. Only matching credentials are sorted by the full key.
public enum MatchKind: String, Sendable, CaseIterable {
    case exactURL = "exact-url"
    case pathPrefix = "path-prefix"
    case sameHost = "same-host"
    case parentDomain = "parent-domain"
    case wildcard = "wildcard"
    case sameSite = "same-site"
    case equivalent = "equivalent"

    /// Lower is better.
    var order: Int {
        switch self {
        case .exactURL: return 0
        case .pathPrefix: return 1
        case .sameHost: return 2
        case .parentDomain: return 3
        case .wildcard: return 4
        case .sameSite: return 5
        case .equivalent: return 6
        }
    }
}

/// A credential as offered for a request: how it matched (nil: it did not) and through which of
/// its services.
public struct RankedCredential: Sendable {
    public let credential: Credential
    public let match: MatchKind?
    public let matchedService: ServiceIdentifier?
    /// Index of the requested identifier it matched.
    public let requestIndex: Int
}

/// What ranking needs besides the credentials: the suffix list, the user's equivalent domains,
/// and local use history for the tie-breaks.
public struct RankingContext {
    public var suffixes: PublicSuffixList
    public var equivalents: EquivalentDomains
    public var usage: UsageHistory

    public init(suffixes: PublicSuffixList, equivalents: EquivalentDomains = EquivalentDomains(), usage: UsageHistory = UsageHistory()) {
        self.suffixes = suffixes
        self.equivalents = equivalents
        self.usage = usage
    }
}

public enum CredentialRanking {
    /// Every credential: the matching ones in ranked order, then the others by title (what
    /// "show all" lists). Sorting the others is most of the cost; `matches` skips it.
    public static func rank(_ credentials: [Credential], for requests: [ServiceIdentifier], context: RankingContext) -> [RankedCredential] {
        var matched = Set<UUID>()
        let ranked = matches(credentials, for: requests, context: context)
        for entry in ranked { matched.insert(entry.credential.id) }
        var others: [(title: String, entry: RankedCredential)] = []
        for credential in credentials where !matched.contains(credential.id) {
            let entry = RankedCredential(credential: credential, match: nil, matchedService: nil, requestIndex: requests.count)
            others.append((credential.displayTitle.lowercased(), entry))
        }
        others.sort { a, b in
            a.title != b.title ? a.title < b.title : a.entry.credential.id.uuidString < b.entry.credential.id.uuidString
        }
        return ranked + others.map { $0.entry }
    }

    /// Only the matching credentials, best first.
    public static func matches(_ credentials: [Credential], for requests: [ServiceIdentifier], context: RankingContext) -> [RankedCredential] {
        let prepared = requests.map { PreparedRequest($0, context) }
        let filter = HostFilter(requests: requests, context: context)
        var matched: [(RankedCredential, Key)] = []
        for index in credentials.indices where credentials[index].services.contains(where: { filter.mayMatch(host: $0.host) }) {
            if let (best, labels) = bestMatch(credentials[index], prepared, context) {
                matched.append((best, Key(best, labels: labels, prepared: prepared, context: context)))
            }
        }
        matched.sort { $0.1 < $1.1 }
        return matched.map(\.0)
    }

    /// The tier of one stored identifier against one request, or nil.
    public static func match(stored: ServiceIdentifier, request: ServiceIdentifier, context: RankingContext) -> MatchKind? {
        matchTier(stored, PreparedRequest(request, context), context)?.kind
    }

    // MARK: -

    /// A request with what every comparison needs computed once.
    struct PreparedRequest {
        let identifier: ServiceIdentifier
        let site: String?
        let equivalentGroup: Int?
        let equivalentIndex: [String: Int]

        init(_ identifier: ServiceIdentifier, _ context: RankingContext) {
            self.identifier = identifier
            site = identifier.hostKind == .name && !identifier.isSingleLabel
                ? context.suffixes.registrableDomain(of: identifier.host) : nil
            equivalentIndex = context.equivalents.index
            equivalentGroup = context.equivalents.groupIndex(of: identifier.host, in: equivalentIndex)
        }
    }

    private static func bestMatch(_ credential: Credential, _ requests: [PreparedRequest], _ context: RankingContext)
        -> (RankedCredential, Int)?
    {
        var best: (kind: MatchKind, request: Int, labels: Int, service: Int)?
        for (index, request) in requests.enumerated() {
            for serviceIndex in credential.services.indices {
                guard let (kind, labels) = matchTier(credential.services[serviceIndex], request, context) else { continue }
                if let current = best {
                    let better = kind.order != current.kind.order ? kind.order < current.kind.order
                        : index != current.request ? index < current.request
                        : labels > current.labels
                    guard better else { continue }
                }
                best = (kind, index, labels, serviceIndex)
            }
        }
        guard let best else { return nil }
        return (RankedCredential(credential: credential, match: best.kind, matchedService: credential.services[best.service],
                                 requestIndex: best.request), best.labels)
    }

    private static func matchTier(_ stored: ServiceIdentifier, _ prepared: PreparedRequest, _ context: RankingContext)
        -> (kind: MatchKind, labels: Int)?
    {
        let request = prepared.identifier
        if stored.scheme == .https, request.scheme == .http { return nil }
        if stored.port != nil || request.port != nil {
            guard let storedPort = stored.effectivePort, storedPort == request.effectivePort else { return nil }
        }
        if stored.host == request.host {
            if stored.isWildcard { return nil }  // *.d does not cover d itself
            if stored.form == .url, request.form == .url, stored.scheme == request.scheme,
               let storedPath = stored.path, let requestPath = request.path {
                if storedPath == requestPath { return (.exactURL, 0) }
                if storedPath != "/", isPathPrefix(storedPath, of: requestPath) { return (.pathPrefix, 0) }
            }
            return (.sameHost, 0)
        }
        guard stored.hostKind == .name, request.hostKind == .name, !request.isSingleLabel else { return nil }
        // Below a public suffix every name is somebody else's site: a credential for `github.io`
        // or `*.s3.amazonaws.com` must never reach `evil.github.io`. Asked only for the rare
        // pair where the request lies under the stored host, so it costs nothing in the common case.
        if stored.isWildcard {
            guard isStrictSubdomain(request.host, of: stored.host), !context.suffixes.isPublicSuffix(stored.host) else { return nil }
            return (.wildcard, labelCount(stored.host))
        }
        if isStrictSubdomain(request.host, of: stored.host), stored.path == nil || stored.path == "/" {
            return context.suffixes.isPublicSuffix(stored.host) ? nil : (.parentDomain, labelCount(stored.host))
        }
        if let site = prepared.site, !stored.isSingleLabel,
           stored.host == site || isStrictSubdomain(stored.host, of: site),
           context.suffixes.registrableDomain(of: stored.host) == site {
            return (.sameSite, 0)
        }
        if let group = prepared.equivalentGroup,
           context.equivalents.groupIndex(of: stored.host, in: prepared.equivalentIndex) == group {
            return (.equivalent, 0)
        }
        return nil
    }

    /// `host` ends with "." + `domain`: a subdomain on a label boundary.
    static func isStrictSubdomain(_ host: String, of domain: String) -> Bool {
        let hostBytes = host.utf8, domainBytes = domain.utf8
        guard hostBytes.count > domainBytes.count + 1 else { return false }
        let dot = hostBytes.index(hostBytes.endIndex, offsetBy: -domainBytes.count - 1)
        return hostBytes[dot] == 0x2E && hostBytes[hostBytes.index(after: dot)...].elementsEqual(domainBytes)
    }

    /// "/login" is a prefix of "/login/two-factor" but not of "/loginx".
    static func isPathPrefix(_ prefix: String, of path: String) -> Bool {
        guard path.utf8.count > prefix.utf8.count, path.utf8.starts(with: prefix.utf8) else { return false }
        if prefix.utf8.last == 0x2F { return true }
        return path.utf8[path.utf8.index(path.utf8.startIndex, offsetBy: prefix.utf8.count)] == 0x2F
    }

    private static func labelCount(_ host: String) -> Int {
        host.utf8.reduce(1) { $0 + ($1 == 0x2E ? 1 : 0) }
    }

    /// The full sort key of a matching credential.
    struct Key: Comparable {
        let tier: Int
        let request: Int
        let labels: Int
        let rank: Int32
        let lastUsed: Int64
        let useCount: Int
        /// Lowercased once: titles decide most ties, and a localized comparison per sort step
        /// costs more than all the matching.
        let title: String
        let credential: Credential

        init(_ ranked: RankedCredential, labels: Int, prepared: [PreparedRequest], context: RankingContext) {
            tier = ranked.match?.order ?? Int.max
            request = ranked.requestIndex
            self.labels = labels
            rank = ranked.credential.rank
            let service = prepared.first?.identifier.host ?? ""
            lastUsed = context.usage.lastUsed(ranked.credential.id, for: service)?.millisecondsSince1970 ?? Int64.min
            useCount = context.usage.useCount(ranked.credential.id)
            title = ranked.credential.displayTitle.lowercased()
            credential = ranked.credential
        }

        static func < (a: Key, b: Key) -> Bool {
            if a.tier != b.tier { return a.tier < b.tier }
            if a.request != b.request { return a.request < b.request }
            if a.labels != b.labels { return a.labels > b.labels }
            if a.rank != b.rank { return a.rank > b.rank }
            if a.lastUsed != b.lastUsed { return a.lastUsed > b.lastUsed }
            if a.useCount != b.useCount { return a.useCount > b.useCount }
            if a.title != b.title { return a.title < b.title }
            return a.credential.id.uuidString < b.credential.id.uuidString
        }

        static func == (a: Key, b: Key) -> Bool { !(a < b) && !(b < a) }
    }
}
