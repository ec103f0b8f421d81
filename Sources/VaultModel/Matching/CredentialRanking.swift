import FoundationEssentials
import ServiceMatching

// Ranking: which credentials answer a request, best first (docs/design.md#ranking).
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
// `HostFilter` first skips the credentials that cannot match, and `get` does not even ask the
// others: the vault's `HostIndex` looks up the ones the filter would pass. Only matching
// credentials are sorted by the full key, and `get`, which needs only the first, finds it in one
// pass (`best`).

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

extension RankedCredential {
    init(_ credential: Credential, _ pairing: CredentialRanking.Pairing) {
        self.init(
            credential: credential, match: pairing.kind, matchedService: credential.services[pairing.service],
            requestIndex: pairing.request, labels: pairing.labels)
    }
}

public enum CredentialRanking {
    /// Every credential: the matching ones in ranked order, then the others by title (what
    /// "show all" lists). Sorting the others is most of the cost; `matches` skips it.
    public static func rank(_ credentials: [Credential], for requests: [ServiceIdentifier], context: RankingContext)
        -> [RankedCredential]
    {
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
    public static func matches(_ credentials: [Credential], for requests: [ServiceIdentifier], context: RankingContext)
        -> [RankedCredential]
    {
        let prepared = requests.map { ServiceMatch.PreparedRequest($0, context) }
        let host = prepared.first?.identifier.host ?? ""
        // The keys are sorted, not the ranked credentials: a key is a few numbers and a title,
        // a ranked credential two dozen references, each retained and released at every move of
        // the sort (a quarter of a `get` whose 10,000 credentials all matched, by perf).
        var matched: [RankedCredential] = []
        var keys: [Key] = []
        for index in passing(credentials, HostFilter(prepared: prepared)) {
            if let pairing = bestPairing(credentials[index], prepared, context) {
                let ranked = RankedCredential(credentials[index], pairing)
                let order = Order(
                    rank: credentials[index].rank, id: credentials[index].id, pairing, host: host, context: context)
                keys.append(Key(ranked, order: order, position: matched.count))
                matched.append(ranked)
            }
        }
        keys.sort()
        return keys.map { matched[$0.position] }
    }

    /// The first credential `matches` would list among those `accepts` takes, and how many of
    /// those were as good as it (`RankedCredential.isEquallyGood`): what `get` needs, found in one
    /// pass instead of a sort. When 10,000 credentials share the site asked for, sorting them
    /// was most of a `get`.
    public static func best(
        _ credentials: [Credential], for requests: [ServiceIdentifier], context: RankingContext,
        accepting accepts: (Credential, MatchKind) -> Bool
    ) -> (credential: RankedCredential, tied: Int)? {
        let prepared = requests.map { ServiceMatch.PreparedRequest($0, context) }
        return best(
            credentials, among: passing(credentials, HostFilter(prepared: prepared)), prepared: prepared,
            context: context,
            accepting: { accepts($0.pointee, $1) })
    }

    /// `best`, looking only at the credentials at `positions` (ascending): those a `HostIndex`
    /// found for the requests' `HostFilter`, which are all that could match. A candidate is a
    /// `Pairing` and an `Order`, numbers read in place; only the winner becomes a
    /// `RankedCredential` (a copy of the credential). `accepts` is given each candidate where it
    /// lies, to read the fields it asks about (`CredentialQuery.accepts(_:match:)`).
    package static func best(
        _ credentials: [Credential], among positions: [Int], prepared: [ServiceMatch.PreparedRequest],
        context: RankingContext,
        accepting accepts: (UnsafePointer<Credential>, MatchKind) -> Bool
    ) -> (credential: RankedCredential, tied: Int)? {
        let host = prepared.first?.identifier.host ?? ""
        var best: Leader?
        var tied = 0
        // Through buffer pointers, and a candidate's fields passed one by one: a credential read
        // from memory and passed whole to a call that is not inlined is copied first (a dozen
        // references retained, then released), since the call might change that memory. Those
        // copies were a quarter of the worst case's instructions (callgrind).
        credentials.withUnsafeBufferPointer { credentials in
            guard let first = credentials.baseAddress else { return }
            prepared.withUnsafeBufferPointer { prepared in
                for index in positions {
                    guard let pairing = bestPairing(credentials[index].services, prepared, context),
                        accepts(first + index, pairing.kind)
                    else { continue }
                    let order = Order(
                        rank: credentials[index].rank, id: credentials[index].id, pairing, host: host, context: context)
                    guard let current = best else {
                        (best, tied) = (Leader(pairing, order, credentials[index], position: index), 1)
                        continue
                    }
                    let better =
                        order != current.order
                        ? order < current.order
                        : current.isAfter(
                            title: credentials[index].title, services: credentials[index].services,
                            id: credentials[index].id)
                    if order.isEquallyGood(as: current.order) {
                        tied += 1
                    } else if better {
                        tied = 1  // better, and not equally good: a new run of equals starts
                    }
                    if better { best = Leader(pairing, order, credentials[index], position: index) }
                }
            }
        }
        return best.map { (RankedCredential(credentials[$0.position], $0.pairing), tied) }
    }

    /// The best candidate so far in `best`: how it matched, its numbers, and what orders it
    /// among equal numbers (`Key`'s title and id), the title's natural-order key made once.
    private struct Leader {
        let pairing: Pairing
        let order: Order
        let title: String
        let key: NaturalSortKey
        let id: UUID
        let position: Int

        init(_ pairing: Pairing, _ order: Order, _ credential: borrowing Credential, position: Int) {
            self.pairing = pairing
            self.order = order
            title = Credential.displayTitle(credential.title, credential.services)
            key = NaturalSortKey(title)
            id = credential.id
            self.position = position
        }

        /// Whether a candidate with the same numbers comes before this one: by title in natural
        /// order (its key made only when the titles differ), then by id.
        func isAfter(title candidateTitle: String, services: [ServiceIdentifier], id candidate: UUID) -> Bool {
            let text = Credential.displayTitle(candidateTitle, services)
            let compared = text == self.title ? 0 : NaturalSortKey.compare(NaturalSortKey(text), key)
            if compared != 0 { return compared < 0 }
            return candidate.precedes(id)
        }
    }

    // MARK: -

    /// The positions of the credentials with a host `filter` lets through, asking each one (what
    /// a `HostIndex` answers by lookup).
    private static func passing(_ credentials: [Credential], _ filter: HostFilter) -> [Int] {
        credentials.indices.filter { credentials[$0].services.contains { filter.mayMatch(host: $0.host) } }
    }

    /// How a credential matched: its best pair of a service and a request (see the top of this
    /// file), as numbers.
    struct Pairing {
        let kind: MatchKind
        let request: Int
        let labels: Int
        let service: Int
    }

    private static func bestPairing(
        _ credential: Credential, _ requests: [ServiceMatch.PreparedRequest], _ context: RankingContext
    )
        -> Pairing?
    {
        requests.withUnsafeBufferPointer { bestPairing(credential.services, $0, context) }
    }

    /// Of a credential's `services` (the field alone: see `best` on copies).
    private static func bestPairing(
        _ services: [ServiceIdentifier], _ requests: UnsafeBufferPointer<ServiceMatch.PreparedRequest>,
        _ context: RankingContext
    ) -> Pairing? {
        var best: Pairing?
        services.withUnsafeBufferPointer { services in
            for index in requests.indices {
                for serviceIndex in services.indices {
                    guard let (kind, labels) = ServiceMatch.tier(services[serviceIndex], requests[index], context)
                    else { continue }
                    if let current = best {
                        let better =
                            kind.order != current.kind.order
                            ? kind.order < current.kind.order
                            : index != current.request
                                ? index < current.request
                                : labels > current.labels
                        guard better else { continue }
                    }
                    best = Pairing(kind: kind, request: index, labels: labels, service: serviceIndex)
                }
            }
        }
        return best
    }

    /// What ranks matching credentials before their titles: numbers, cheap to make and compare.
    struct Order: Comparable {
        let tier: Int
        let request: Int
        let labels: Int
        let rank: Int32
        let lastUsed: Int64
        let useCount: Int

        /// `host`: the first request's, which the use history is kept by.
        init(rank: Int32, id: UUID, _ pairing: Pairing, host: String, context: RankingContext) {
            tier = pairing.kind.order
            request = pairing.request
            labels = pairing.labels
            self.rank = rank
            let use = context.usage.use(of: id, for: host)
            lastUsed = use.lastUsed?.millisecondsSince1970 ?? Int64.min
            useCount = use.count
        }

        /// `RankedCredential.isEquallyGood`, on the numbers.
        func isEquallyGood(as other: Order) -> Bool {
            tier == other.tier && request == other.request && labels == other.labels && rank == other.rank
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

        static func < (a: Key, b: Key) -> Bool {
            if a.order != b.order { return a.order < b.order }
            let title = NaturalSortKey.compare(a.title, b.title)
            if title != 0 { return title < 0 }
            return a.id.precedes(b.id)
        }

        static func == (a: Key, b: Key) -> Bool { !(a < b) && !(b < a) }
    }
}
