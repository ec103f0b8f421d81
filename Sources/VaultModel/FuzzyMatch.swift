// Fuzzy matching of typed filter text, in the manner of fzf.
//
// A query matches a candidate when its characters appear in the candidate in order, not
// necessarily together ("ghal" matches "GitHub alice"). Which of the matching candidates the user
// means is then a question of *how* they match, and the score encodes what people type:
//
//   - characters at the start of a word (after a space, '.', '-', '_', '/', '@' or at the very
//     start) are what people abbreviate with, so they earn a boundary bonus;
//   - characters typed together usually stand together in what was meant, so a run of
//     consecutive matches earns a bonus per character;
//   - gaps cost a little to open and a little more for each character they skip, so a tight
//     match beats a scattered one.
//
// Finding the best alignment exactly takes a dynamic programme (fzf's v2); like fzf's v1 this
// takes the first occurrence that completes the query, then walks back from its end to the latest
// start, which gives the shortest window ending there, and scores that. It is linear in the
// candidate's length, which is what lets a keystroke re-score 100,000 credentials within a frame.
//
// The query is split on spaces into terms that must all match (in any order); the score is their
// sum. Matching ignores ASCII case.
public enum FuzzyMatch {
    static let scorePerCharacter = 16
    static let boundaryBonus = 8
    static let consecutiveBonus = 4
    static let gapOpenPenalty = 3
    static let gapExtensionPenalty = 1

    /// The score of `query` against `candidate` (both lowercased ASCII-wise by the caller, see
    /// `searchBytes`), or nil when some term does not match.
    public static func score(query: [[UInt8]], candidate: [UInt8]) -> Int? {
        var total = 0
        for term in query {
            guard let termScore = score(term: term, candidate: candidate) else { return nil }
            total += termScore
        }
        return total
    }

    /// The query's terms, lowercased.
    public static func terms(_ query: String) -> [[UInt8]] {
        query.split(separator: " ").map { searchBytes(String($0)) }
    }

    /// Text as the matcher compares it: UTF-8 with ASCII letters lowercased.
    public static func searchBytes(_ text: String) -> [UInt8] {
        text.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
    }

    static func score(term: [UInt8], candidate: [UInt8]) -> Int? {
        guard !term.isEmpty else { return 0 }
        guard term.count <= candidate.count else { return nil }
        return candidate.withUnsafeBufferPointer { text in
            term.withUnsafeBufferPointer { pattern in
                // Forward: where does the first complete occurrence end?
                var p = 0
                var end = -1
                for index in 0 ..< text.count where text[index] == pattern[p] {
                    p += 1
                    if p == pattern.count {
                        end = index
                        break
                    }
                }
                guard end >= 0 else { return nil }
                // Backward: the latest start of an occurrence ending there.
                p = pattern.count - 1
                var start = end
                var index = end
                while index >= 0 {
                    if text[index] == pattern[p] {
                        if p == 0 {
                            start = index
                            break
                        }
                        p -= 1
                    }
                    index -= 1
                }
                // Score the window, matching greedily from its start.
                var score = 0
                var consecutive = 0
                var inGap = false
                p = 0
                for index in start ... end {
                    if p < pattern.count, text[index] == pattern[p] {
                        score += scorePerCharacter
                        if index == 0 || isBoundary(text[index - 1]) { score += boundaryBonus }
                        if consecutive > 0 { score += consecutiveBonus * consecutive }
                        consecutive += 1
                        inGap = false
                        p += 1
                    } else {
                        score -= inGap ? gapExtensionPenalty : gapOpenPenalty
                        inGap = true
                        consecutive = 0
                    }
                }
                return score
            }
        }
    }

    private static func isBoundary(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x2E || byte == 0x2D || byte == 0x5F || byte == 0x2F || byte == 0x40 || byte == 0x3A
    }
}

/// A ranked list prepared for filtering as the user types: the text each credential is searched
/// by (title, username, services) is built once, so a keystroke only scores.
public struct FilterableList: Sendable {
    public let ranked: [RankedCredential]
    private let searchTexts: [[UInt8]]

    public init(_ ranked: [RankedCredential]) {
        self.ranked = ranked
        searchTexts = ranked.map { entry in
            let credential = entry.credential
            return FuzzyMatch.searchBytes(([credential.displayTitle, credential.username] + credential.services.map(\.text)).joined(separator: " "))
        }
    }

    /// The entries that match `query`: matching credentials stay above non-matching ones (the
    /// sections), and within each the better fuzzy score comes first, ties keeping the ranked
    /// order. An empty query returns the list as ranked.
    public func filtered(by query: String) -> [RankedCredential] {
        filteredPositions(by: query).map { ranked[$0] }
    }

    /// `filtered(by:)` as positions in `ranked`: what a screen keeps, without copying entries.
    public func filteredPositions(by query: String) -> [Int] {
        let terms = FuzzyMatch.terms(query)
        guard !terms.isEmpty else { return Array(ranked.indices) }
        // One integer per hit, ordered as (section, better score, ranked position): sorting
        // plain integers keeps a one-letter query over 100,000 entries within a frame.
        var keys: [UInt64] = []
        for position in ranked.indices {
            guard let score = FuzzyMatch.score(query: terms, candidate: searchTexts[position]) else { continue }
            let section: UInt64 = ranked[position].match == nil ? 1 : 0
            let inverted = UInt64(clamping: (1 << 30) - min(max(score, -(1 << 29)), 1 << 29))
            keys.append(section << 62 | inverted << 32 | UInt64(position))
        }
        keys.sort()
        return keys.map { Int($0 & 0xFFFF_FFFF) }
    }
}
