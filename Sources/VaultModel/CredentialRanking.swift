import Foundation

// Which credentials answer a request for some services, best first.
//
// This is the first cut of DESIGN §5: a stored service matches a requested host when it names
// the same host, when it is a bare domain of which the host is a subdomain (more labels in
// common is a closer match: `api.github.com` before `github.com` for `x.api.github.com`), or when
// it is a wildcard `*.d` and the host is a strict subdomain of d. Comparison is on whole labels,
// so `box.com` never matches `dropbox.com`. Ports, schemes, paths and the Public Suffix List come
// with the full ranking work.
//
// Several requested services: the earlier ones are more specific, so a match for the first beats
// any match for the second. Ties go to the higher identity rank, then the title.
public enum MatchKind: String, Sendable, Comparable, CaseIterable {
    case sameHost = "same-host"
    case parentDomain = "parent-domain"
    case wildcard = "wildcard"

    /// Higher is better.
    var strength: Int {
        switch self {
        case .sameHost: return 3
        case .parentDomain: return 2
        case .wildcard: return 1
        }
    }

    public static func < (a: MatchKind, b: MatchKind) -> Bool { a.strength < b.strength }
}

/// A credential as offered for a request: how it matched and through which of its services.
public struct RankedCredential: Sendable {
    public let credential: Credential
    public let match: MatchKind
    public let matchedService: ServiceIdentifier
    /// Index of the requested service it matched.
    public let requestIndex: Int
    /// Labels the stored host has: more is closer.
    let labels: Int
}

public enum CredentialRanking {
    /// The credentials matching any of `requests`, best first; non-matching ones are left out.
    public static func rank(_ credentials: [Credential], for requests: [ServiceIdentifier]) -> [RankedCredential] {
        var ranked: [RankedCredential] = []
        for credential in credentials {
            if let best = bestMatch(credential, requests) { ranked.append(best) }
        }
        ranked.sort(by: isBetter)
        return ranked
    }

    static func bestMatch(_ credential: Credential, _ requests: [ServiceIdentifier]) -> RankedCredential? {
        var best: RankedCredential?
        for (requestIndex, request) in requests.enumerated() {
            for service in credential.services {
                guard let kind = match(stored: service, requestedHost: request.host) else { continue }
                let candidate = RankedCredential(
                    credential: credential, match: kind, matchedService: service,
                    requestIndex: requestIndex, labels: service.host.split(separator: ".").count)
                if best.map({ isCloser(candidate, than: $0) }) ?? true { best = candidate }
            }
        }
        return best
    }

    static func match(stored: ServiceIdentifier, requestedHost host: String) -> MatchKind? {
        let isSubdomain = host.count > stored.host.count && host.hasSuffix("." + stored.host)
        if stored.isWildcard { return isSubdomain ? .wildcard : nil }
        if host == stored.host { return .sameHost }
        return isSubdomain ? .parentDomain : nil
    }

    /// Closeness of the match alone: request order, then tier, then labels in common.
    private static func isCloser(_ a: RankedCredential, than b: RankedCredential) -> Bool {
        if a.requestIndex != b.requestIndex { return a.requestIndex < b.requestIndex }
        if a.match != b.match { return a.match > b.match }
        return a.labels > b.labels
    }

    private static func isBetter(_ a: RankedCredential, _ b: RankedCredential) -> Bool {
        if isCloser(a, than: b) { return true }
        if isCloser(b, than: a) { return false }
        if a.credential.rank != b.credential.rank { return a.credential.rank > b.credential.rank }
        let titleOrder = a.credential.displayTitle.localizedStandardCompare(b.credential.displayTitle)
        if titleOrder != .orderedSame { return titleOrder == .orderedAscending }
        return a.credential.id.uuidString < b.credential.id.uuidString
    }
}
