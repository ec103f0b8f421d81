import ServiceMatching

/// A ranked list prepared for filtering as the user types: the text each credential is searched
/// by (title, username, services) is built once, so a keystroke only scores.
public struct FilterableList: Sendable {
    public let ranked: [RankedCredential]
    private let searchTexts: [[UInt8]]

    public init(_ ranked: [RankedCredential]) {
        self.ranked = ranked
        searchTexts = ranked.map { entry in
            let credential = entry.credential
            return FuzzyMatch.searchBytes(
                title: credential.displayTitle, username: credential.username, services: credential.services)
        }
    }

    /// The entries that match `query`: matching credentials stay above non-matching ones (the
    /// sections), and within each the better fuzzy score comes first, ties keeping the ranked
    /// order. An empty query returns the list as ranked.
    public func filtered(by query: String) -> [RankedCredential] {
        filteredPositions(by: query).positions.map { ranked[$0] }
    }

    /// What a screen shows for a query: positions in `ranked` (no entries copied), and which of
    /// them matches the query best whatever its section, where the cursor belongs (nil: none
    /// typed). With `matchesOnly`, only the first section is kept (show-all off).
    public struct Filtered: Sendable {
        public let positions: [Int]
        public let best: Int?
    }

    /// `filtered(by:)` as positions in `ranked`, with the best match's index among them.
    public func filteredPositions(by query: String, matchesOnly: Bool = false) -> Filtered {
        let terms = FuzzyMatch.terms(query)
        guard !terms.isEmpty else {
            let all = matchesOnly ? Array(ranked.indices.prefix { ranked[$0].match != nil }) : Array(ranked.indices)
            return Filtered(positions: all, best: nil)
        }
        // One integer per hit, ordered as (section, better score, ranked position): sorting plain
        // integers keeps a one-letter query over 100,000 entries within a frame. The score is
        // clamped and offset into 31 bits, so no score, however negative, reaches the section bit.
        let scoreBits: UInt64 = 31
        let limit = Int(1 << (scoreBits - 1)) - 1
        var keys: [UInt64] = []
        var best: (score: Int, position: Int)?
        for position in ranked.indices {
            let isMatch = ranked[position].match != nil
            if matchesOnly, !isMatch { continue }
            guard let raw = FuzzyMatch.score(query: terms, candidate: searchTexts[position]) else { continue }
            let score = min(max(raw, -limit), limit)
            if score > best?.score ?? .min { best = (score, position) }
            let section: UInt64 = isMatch ? 0 : 1
            let inverted = UInt64(limit - score)  // 0 ..< 2^31: higher scores sort first
            keys.append(section << 63 | inverted << 32 | UInt64(position))
        }
        keys.sort()
        let positions = keys.map { Int($0 & 0xFFFF_FFFF) }
        return Filtered(
            positions: positions, best: best.flatMap { wanted in positions.firstIndex(of: wanted.position) })
    }
}
