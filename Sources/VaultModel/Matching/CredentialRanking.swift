import FoundationEssentials
import ServiceMatching

// Ranking: which credentials answer a request, best first (DESIGN §5).
//
// How one stored service identifier matches one request — the tiers, from exact URL to
// equivalent domains, and the rules that hold across them — is `ServiceMatch` (ServiceMatching).
// This file orders credentials by those tiers.
//
// A credential takes its best pair. Pairs compare by tier first; within a tier, a match for an
// earlier requested identifier (which the caller lists most specific first) beats a match for a
// later one, and a parent domain with more labels beats a shorter one. A weak match for the first
// identifier does not beat an exact match for the second: a tier says more than a position.
// Ties between credentials go to the identity rank (higher first), then the last use for this
// service (more recent first), then the use count, then the title (natural order: `NaturalSortKey`), and finally the id, so the
// order is deterministic and does not depend on the order of the vault.
//
// Cost: for each credential and service, one tier comparison (see `ServiceMatch`); a
// `HostFilter` first skips the credentials that cannot match. Only matching credentials are
// sorted by the full key, and `get`, which needs only the first, finds it in one pass (`best`).

/// A credential as offered for a request: how it matched (nil: it did not) and through which of
/// its services.
public struct RankedCredential: Sendable {
    public let credential: Credential
    public let match: MatchKind?
    public let matchedService: ServiceIdentifier?
    /// Index of the requested identifier it matched.
    public let requestIndex: Int
    /// Labels of the parent domain it matched through (more: a closer parent).
    var labels = 0

    /// Whether ranking could not tell the two apart but by the use history (and, after it, the
    /// title and the id, which say nothing about fitness): the same tier, the same requested
    /// identifier, as close a parent, the same rank. `get` says when it chose among such ties.
    public func isEquallyGood(as other: RankedCredential) -> Bool {
        match?.order == other.match?.order && requestIndex == other.requestIndex && labels == other.labels
            && credential.rank == other.credential.rank
    }
}

public enum CredentialRanking {
    /// Every credential: the matching ones in ranked order, then the others by title (what
    /// "show all" lists). Sorting the others is most of the cost; `matches` skips it.
    public static func rank(_ credentials: [Credential], for requests: [ServiceIdentifier], context: RankingContext) -> [RankedCredential] {
        var matched = Set<UUID>()
        let ranked = matches(credentials, for: requests, context: context)
        for entry in ranked { matched.insert(entry.credential.id) }
        let others = byTitle(credentials.filter { !matched.contains($0.id) }).map {
            RankedCredential(credential: $0, match: nil, matchedService: nil, requestIndex: requests.count)
        }
        return ranked + others
    }

    /// `credentials` by title in natural order (`NaturalSortKey`), then by id: the order of
    /// `pwtui list` and of the picker's sections of credentials that do not match.
    public static func byTitle(_ credentials: [Credential]) -> [Credential] {
        var keyed = credentials.map { (key: NaturalSortKey($0.displayTitle), credential: $0) }
        keyed.sort { a, b in
            a.key != b.key ? a.key < b.key : a.credential.id.precedes(b.credential.id)
        }
        return keyed.map(\.credential)
    }

    /// Only the matching credentials, best first.
    public static func matches(_ credentials: [Credential], for requests: [ServiceIdentifier], context: RankingContext) -> [RankedCredential] {
        let prepared = requests.map { ServiceMatch.PreparedRequest($0, context) }
        let filter = HostFilter(requests: requests, context: context)
        // The keys are sorted, not the ranked credentials: a key is a few numbers and a title,
        // a ranked credential two dozen references, each retained and released at every move of
        // the sort (a quarter of a `get` whose 10,000 credentials all matched, by perf).
        var matched: [RankedCredential] = []
        var keys: [Key] = []
        for index in credentials.indices where credentials[index].services.contains(where: { filter.mayMatch(host: $0.host) }) {
            if let (best, labels) = bestMatch(credentials[index], prepared, context) {
                keys.append(Key(best, labels: labels, position: matched.count, prepared: prepared, context: context))
                matched.append(best)
            }
        }
        keys.sort()
        return keys.map { matched[$0.position] }
    }

    /// The first credential `matches` would list among those `accepts` takes, and how many of
    /// those were as good as it (`RankedCredential.isEquallyGood`): what `get` needs, found in one
    /// pass instead of a sort. When 10,000 credentials share the site asked for, sorting them
    /// was most of a `get`.
    public static func best(_ credentials: [Credential], for requests: [ServiceIdentifier], context: RankingContext,
                            accepting accepts: (RankedCredential) -> Bool) -> (credential: RankedCredential, tied: Int)? {
        let filter = HostFilter(requests: requests, context: context)
        let passing = credentials.indices.filter { credentials[$0].services.contains { filter.mayMatch(host: $0.host) } }
        return best(credentials, among: passing, for: requests, context: context, accepting: accepts)
    }

    /// `best`, looking only at the credentials at `positions` (ascending): those a `HostIndex`
    /// found for the requests' `HostFilter`, which are all that could match.
    public static func best(_ credentials: [Credential], among positions: [Int], for requests: [ServiceIdentifier],
                            context: RankingContext,
                            accepting accepts: (RankedCredential) -> Bool) -> (credential: RankedCredential, tied: Int)? {
        let prepared = requests.map { ServiceMatch.PreparedRequest($0, context) }
        var best: (ranked: RankedCredential, key: Key)?
        var tied = 0
        for index in positions {
            guard let (candidate, labels) = bestMatch(credentials[index], prepared, context), accepts(candidate) else { continue }
            let order = Order(candidate, labels: labels, prepared: prepared, context: context)
            guard let current = best else {
                (best, tied) = ((candidate, Key(candidate, order: order, position: index)), 1)
                continue
            }
            let better = isBetter(candidate, order, than: current.ranked, current.key)
            if candidate.isEquallyGood(as: current.ranked) {
                tied += 1
            } else if better {
                tied = 1  // better, and not equally good: a new run of equals starts
            }
            if better { best = (candidate, Key(candidate, order: order, position: index)) }
        }
        return best.map { ($0.ranked, tied) }
    }

    /// `Key`'s order without making the candidate's whole key: the title's natural-order key
    /// (an allocation and a normalization) only when the numbers tie and the titles differ.
    /// When 10,000 credentials share the site asked for, making every key was most of a `get`.
    private static func isBetter(_ candidate: RankedCredential, _ order: Order, than current: RankedCredential, _ key: Key) -> Bool {
        if order != key.order { return order < key.order }
        let title = candidate.credential.displayTitle == current.credential.displayTitle
            ? 0 : NaturalSortKey.compare(NaturalSortKey(candidate.credential.displayTitle), key.title)
        if title != 0 { return title < 0 }
        return candidate.credential.id.precedes(key.id)
    }

    // MARK: -

    private static func bestMatch(_ credential: Credential, _ requests: [ServiceMatch.PreparedRequest], _ context: RankingContext)
        -> (RankedCredential, Int)?
    {
        var best: (kind: MatchKind, request: Int, labels: Int, service: Int)?
        for (index, request) in requests.enumerated() {
            for serviceIndex in credential.services.indices {
                guard let (kind, labels) = ServiceMatch.tier(credential.services[serviceIndex], request, context) else { continue }
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
                                 requestIndex: best.request, labels: best.labels), best.labels)
    }

    /// What ranks matching credentials before their titles: numbers, cheap to make and compare.
    struct Order: Comparable {
        let tier: Int
        let request: Int
        let labels: Int
        let rank: Int32
        let lastUsed: Int64
        let useCount: Int

        init(_ ranked: RankedCredential, labels: Int, prepared: [ServiceMatch.PreparedRequest], context: RankingContext) {
            tier = ranked.match?.order ?? Int.max
            request = ranked.requestIndex
            self.labels = labels
            rank = ranked.credential.rank
            let use = context.usage.use(of: ranked.credential.id, for: prepared.first?.identifier.host ?? "")
            lastUsed = use.lastUsed?.millisecondsSince1970 ?? Int64.min
            useCount = use.count
        }

        static func < (a: Order, b: Order) -> Bool {
            if a.tier != b.tier { return a.tier < b.tier }
            if a.request != b.request { return a.request < b.request }
            if a.labels != b.labels { return a.labels > b.labels }
            if a.rank != b.rank { return a.rank > b.rank }
            if a.lastUsed != b.lastUsed { return a.lastUsed > b.lastUsed }
            return a.useCount > b.useCount
        }
    }

    /// The full sort key of a matching credential: its order, then its title, then its id.
    struct Key: Comparable {
        let order: Order
        /// Made once: titles decide most ties, and a localized comparison per sort step costs
        /// more than all the matching.
        let title: NaturalSortKey
        let id: UUID
        /// Where the ranked credential is in the list being sorted.
        let position: Int

        init(_ ranked: RankedCredential, order: Order, position: Int) {
            self.order = order
            title = NaturalSortKey(ranked.credential.displayTitle)
            id = ranked.credential.id
            self.position = position
        }

        init(_ ranked: RankedCredential, labels: Int, position: Int, prepared: [ServiceMatch.PreparedRequest], context: RankingContext) {
            self.init(ranked, order: Order(ranked, labels: labels, prepared: prepared, context: context), position: position)
        }

        static func < (a: Key, b: Key) -> Bool {
            if a.order != b.order { return a.order < b.order }
            let title = NaturalSortKey.compare(a.title, b.title)
            if title != 0 { return title < 0 }
            return a.id.precedes(b.id)
        }

        static func == (a: Key, b: Key) -> Bool { !(a < b) && !(b < a) }
    }
}
