// Fuzzy matching of typed filter text, in the manner of fzf.
//
// A query matches a candidate when its characters appear in the candidate in order, not
// necessarily together ("ghal" matches "GitHub alice"). Which of the matching candidates the user
// means is then a question of *how* they match, and the score encodes what people type:
//
//   - characters at the start of a word (after a space, '.', '-', '_', '/', '@', ':' or at the
//     very start) are what people abbreviate with, so they earn a boundary bonus;
//   - characters typed together usually stand together in what was meant, so each character
//     that directly follows the previous matched one earns a consecutive bonus, larger than the
//     boundary bonus minus the cheapest gap: "zz" typed together beats "z … z" even when both
//     of those z's start words;
//   - gaps cost a little to open and a little more for each character they skip, so a tight
//     match beats a scattered one.
//
// A candidate can hold the query in many ways ("z xxxx zz" holds "zz" three ways); its score is
// that of the best one. Taking the first occurrence (fzf's v1, which this file used to do) scores
// "z xxxx zz" by its scattered first way and ranks it below worse candidates. The best way is a
// small dynamic programme, fzf's v2 in spirit: row i holds, for each candidate position j, the
// best score of matching the query's first i+1 characters with the last one at j. A match at j
// continues either the previous row at j-1 (consecutive) or the best earlier match k ≤ j-2 less
// the gap's cost; that best-with-gap is carried along the row, decaying by the extension penalty
// per step, so a row costs one pass: O(query × candidate) in all, with two rows of memory. A
// forward scan first rejects candidates that do not contain the query at all, which is most of
// them, at the cost of one pass.
//
// The query is split on spaces into terms that must all match (in any order); the score is their
// sum. Matching ignores case and accents, and an IDN host is found by its Unicode form too
// (`searchBytes`).

import UnicodeText

public enum FuzzyMatch {
    static let scorePerCharacter = 16
    static let boundaryBonus = 8
    static let consecutiveBonus = 8
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

    /// Text as the matcher compares it: UTF-8 with letters lowercased and accents dropped
    /// (`foldedForComparison`), so `bucher` finds `bücher.de` and `MÜN` finds `München`. ASCII,
    /// almost all of it, takes the fast path.
    public static func searchBytes(_ text: String) -> [UInt8] {
        guard text.utf8.allSatisfy({ $0 < 0x80 }) else { return Array(text.foldedForComparison.utf8) }
        return text.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
    }

    /// The text a credential is found by as the user types: its title, username and services,
    /// an IDN host also as a reader writes it (`xn--mnchen-3ya.de` is `münchen.de`).
    public static func searchBytes(title: String, username: String, services: [ServiceIdentifier]) -> [UInt8] {
        var words = [title, username]
        for service in services {
            words.append(service.text)
            if service.host.contains("xn--") { words.append(Punycode.toUnicode(service.host)) }
        }
        return searchBytes(words.joined(separator: " "))
    }

    /// The best score of one term, or nil when the candidate does not contain it in order.
    static func score(term: [UInt8], candidate: [UInt8]) -> Int? {
        guard !term.isEmpty else { return 0 }
        guard term.count <= candidate.count else { return nil }
        return candidate.withUnsafeBufferPointer { text in
            term.withUnsafeBufferPointer { pattern in
                // Reject quickly, and find where the first character can first match.
                var p = 0
                var first = -1
                for index in 0 ..< text.count where text[index] == pattern[p] {
                    if p == 0 { first = index }
                    p += 1
                    if p == pattern.count { break }
                }
                guard p == pattern.count else { return nil }

                func gain(_ index: Int) -> Int {
                    scorePerCharacter + (index == 0 || isBoundary(text[index - 1]) ? boundaryBonus : 0)
                }
                // One character: its best single position, no table needed (the commonest
                // keystroke, over every candidate).
                if pattern.count == 1 {
                    var best = Int.min
                    for index in first ..< text.count where text[index] == pattern[0] { best = max(best, gain(index)) }
                    return best
                }
                let unreachable = Int.min / 4
                // Nothing after the last place the final character stands can end a match.
                var last = text.count - 1
                while text[last] != pattern[pattern.count - 1] { last -= 1 }
                let width = last - first + 1
                // The two rows live on the stack: a heap allocation per candidate was half the
                // cost of a keystroke over 100,000 credentials.
                return withUnsafeTemporaryAllocation(of: Int.self, capacity: 2 * width) { rows in
                    var previous = UnsafeMutableBufferPointer(rebasing: rows[0 ..< width])
                    var current = UnsafeMutableBufferPointer(rebasing: rows[width ..< 2 * width])
                    for offset in 0 ..< width {
                        previous[offset] = text[first + offset] == pattern[0] ? gain(first + offset) : unreachable
                    }
                    for row in 1 ..< pattern.count {
                        let wanted = pattern[row]
                        var bestWithGap = unreachable
                        for offset in 0 ..< width {
                            // A match two or more places back, with the gap between paid for.
                            if offset >= 2 {
                                bestWithGap = max(
                                    bestWithGap - gapExtensionPenalty, previous[offset - 2] - gapOpenPenalty)
                            }
                            guard text[first + offset] == wanted, offset >= 1 else {
                                current[offset] = unreachable
                                continue
                            }
                            let before = max(previous[offset - 1] + consecutiveBonus, bestWithGap)
                            current[offset] = before <= unreachable / 2 ? unreachable : before + gain(first + offset)
                        }
                        swap(&previous, &current)
                    }
                    let best = previous.max() ?? unreachable
                    return best <= unreachable / 2 ? nil : best
                }
            }
        }
    }

    private static func isBoundary(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x2E || byte == 0x2D || byte == 0x5F || byte == 0x2F || byte == 0x40 || byte == 0x3A
    }
}
