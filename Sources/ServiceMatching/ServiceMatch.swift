// Matching: how one stored service identifier answers one request (docs/design.md#ranking).
//
// AutoFill's promise is that the credential you need is the first one offered, and that a
// credential for another site is never offered as a match. So matching is exact and explainable:
// a stored identifier and a requested one fall into one tier, from the most to the least specific:
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
// An app link (`android://…@package`, `androidapp://package`, `iosapp://id`) matches only a request
// for the same app, as an exact match; it is no host, so it never reaches or is reached by a site.
//
// Across every tier two rules hold: an https credential is never offered to an http request, and
// ports agree (`portsAgree`, the one port rule, issue 38). A service's port is the one it names,
// else its scheme's default (`ssh://h` is h:22); http and https without a port are one web
// origin, as before. A request that names neither a scheme nor a port (`pwtui list nas.local`:
// a person asking for a host) takes the host on any port; a stored host without scheme or port
// is the host on the default port of whatever asks; otherwise the two ports must be the same. So
// `ssh://h` is never offered to `https://h`, `nas.local:5000` answers `http://nas.local:5000` and
// `nas.local`, and git asking for `https://h` (443) never gets `https://h:8443`'s password.
// Hosts compare whole labels, so `box.com` never matches `dropbox.com`; addresses and single-label
// hosts get no parent-domain, wildcard or same-site matches.
//
// Which credential of many comes first is `CredentialRanking`'s question (VaultModel); it asks
// this file for the tier of each of a credential's identifiers against each request.
//
// Cost: for each pair, a handful of byte comparisons on ASCII hosts; the Public Suffix List is
// consulted only for hosts that share the requested registrable domain as a suffix, and those
// lookups are cached.
public enum MatchKind: String, Sendable, CaseIterable, Codable {
    case exactURL = "exact-url"
    case pathPrefix = "path-prefix"
    case sameHost = "same-host"
    case parentDomain = "parent-domain"
    case wildcard = "wildcard"
    case sameSite = "same-site"
    case equivalent = "equivalent"

    /// Lower is better.
    package var order: Int {
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

/// What matching and ranking need besides the identifiers: the suffix list, the user's
/// equivalent domains, and local use history for the tie-breaks.
public struct RankingContext {
    public var suffixes: PublicSuffixList
    public var equivalents: EquivalentDomains
    public var usage: UsageHistory

    public init(
        suffixes: PublicSuffixList, equivalents: EquivalentDomains = EquivalentDomains(),
        usage: UsageHistory = UsageHistory()
    ) {
        self.suffixes = suffixes
        self.equivalents = equivalents
        self.usage = usage
    }
}

public enum ServiceMatch {
    /// The tier of one stored identifier against one request, or nil.
    public static func tier(stored: ServiceIdentifier, request: ServiceIdentifier, context: RankingContext)
        -> MatchKind?
    {
        tier(stored, PreparedRequest(request, context), context)?.kind
    }

    /// A request with what every comparison needs computed once. A class: ranking passes one
    /// to `tier` for every candidate, and a struct of four fields read from an array is copied
    /// whole for each such call, a reference is retained once.
    package final class PreparedRequest {
        package let identifier: ServiceIdentifier
        package let site: String?
        package let equivalentGroup: Int?
        package let equivalentIndex: [String: Int]

        package init(_ identifier: ServiceIdentifier, _ context: RankingContext) {
            self.identifier = identifier
            site =
                identifier.hostKind == .name && !identifier.isSingleLabel
                ? context.suffixes.registrableDomain(of: identifier.host) : nil
            equivalentIndex = context.equivalents.index
            equivalentGroup = context.equivalents.groupIndex(of: identifier.host, in: equivalentIndex)
        }
    }

    /// The tier of `stored` against a prepared request, and for the parent-domain and wildcard
    /// tiers the stored domain's label count (a closer parent beats a shorter one).
    package static func tier(_ stored: ServiceIdentifier, _ prepared: PreparedRequest, _ context: RankingContext)
        -> (kind: MatchKind, labels: Int)?
    {
        let request = prepared.identifier
        // An app link is the app it names and nothing else: a request for the same app (its
        // package, whatever the link's spelling), never a web host with the same name.
        if stored.form == .app || request.form == .app {
            return stored.form == request.form && stored.host == request.host
                && stored.appPlatform == request.appPlatform
                ? (.exactURL, 0) : nil
        }
        if stored.scheme == .https, request.scheme == .http { return nil }
        guard portsAgree(stored: stored, request: request) else { return nil }
        if stored.host == request.host {
            if stored.isWildcard { return nil }  // *.d does not cover d itself
            if stored.form == .url, request.form == .url, stored.scheme == request.scheme,
                let storedPath = stored.path, let requestPath = request.path
            {
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
            guard isStrictSubdomain(request.host, of: stored.host), !context.suffixes.isPublicSuffix(stored.host) else {
                return nil
            }
            return (.wildcard, labelCount(stored.host))
        }
        if isStrictSubdomain(request.host, of: stored.host), stored.path == nil || stored.path == "/" {
            return context.suffixes.isPublicSuffix(stored.host) ? nil : (.parentDomain, labelCount(stored.host))
        }
        if let site = prepared.site, !stored.isSingleLabel,
            stored.host == site || isStrictSubdomain(stored.host, of: site),
            context.suffixes.registrableDomain(of: stored.host) == site
        {
            return (.sameSite, 0)
        }
        if let group = prepared.equivalentGroup,
            context.equivalents.groupIndex(of: stored.host, in: prepared.equivalentIndex) == group
        {
            return (.equivalent, 0)
        }
        return nil
    }

    /// The one port rule (see the essay above): whether `stored` may answer `request` on the
    /// ports each names or implies.
    public static func portsAgree(stored: ServiceIdentifier, request: ServiceIdentifier) -> Bool {
        if request.scheme == nil, request.port == nil { return true }
        if stored.scheme == nil, stored.port == nil { return request.port == nil }
        return Port(stored).agrees(with: Port(request))
    }

    /// Whether `stored` would answer `request` but for the port: what a message names when
    /// nothing matched ("saved for nas.local on port 5001").
    public static func missesOnlyByPort(stored: ServiceIdentifier, request: ServiceIdentifier) -> Bool {
        guard stored.form != .app, request.form != .app, stored.host == request.host, !stored.isWildcard,
            !(stored.scheme == .https && request.scheme == .http)
        else { return false }
        return !portsAgree(stored: stored, request: request)
    }

    /// What a service's port is for comparison: a number, the web's default (http and https
    /// alike: an http credential may answer https), or a scheme pwtui knows no default for
    /// (only the same scheme is the same port).
    private enum Port {
        case number(UInt16)
        case webDefault(UInt16)
        case unknown(scheme: String)

        // Borrowing: an owned argument is a copy of the identifier (its strings retained and
        // released), a fifth of ranking 10,000 credentials of one site.
        init(_ service: borrowing ServiceIdentifier) {
            if let port = service.port {
                self = .number(port)
            } else if let scheme = service.scheme, scheme.isWeb, let port = scheme.defaultPort {
                self = .webDefault(port)
            } else if let port = service.scheme?.defaultPort {
                self = .number(port)
            } else {
                self = .unknown(scheme: service.scheme?.rawValue ?? "")
            }
        }

        func agrees(with other: Port) -> Bool {
            switch (self, other) {
            case (.number(let a), .number(let b)), (.webDefault(let a), .number(let b)),
                (.number(let a), .webDefault(let b)):
                return a == b
            case (.webDefault, .webDefault): return true
            case (.unknown(let a), .unknown(let b)): return a == b
            default: return false
            }
        }
    }

    /// `host` ends with "." + `domain`: a subdomain on a label boundary.
    static func isStrictSubdomain(_ host: String, of domain: String) -> Bool {
        // Over the contiguous bytes: walking String.UTF8View's indices was a seventh of a
        // ranking pass over 10,000 credentials of one site (perf).
        var host = host, domain = domain
        return host.withUTF8 { hostBytes in
            domain.withUTF8 { domainBytes in
                let dot = hostBytes.count - domainBytes.count - 1
                guard dot > 0, hostBytes[dot] == 0x2E else { return false }
                return UnsafeBufferPointer(rebasing: hostBytes[(dot + 1)...]).elementsEqual(domainBytes)
            }
        }
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
}
