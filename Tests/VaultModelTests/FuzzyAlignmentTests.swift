import Foundation
import Testing
@testable import VaultModel

/// The filter's score is the best alignment's, checked against brute force over every alignment
/// of generated short texts; and the regressions that first-occurrence scoring and a score
/// spilling into the section bit caused.
@Suite struct FuzzyAlignmentTests {
    /// Every way to place `term` in `text`, scored by the rules FuzzyMatch's essay states,
    /// written out independently.
    static func bruteForce(_ term: [UInt8], _ text: [UInt8]) -> Int? {
        func isBoundary(_ byte: UInt8) -> Bool { " .-_/@:".utf8.contains(byte) }
        var best: Int?
        func place(_ p: Int, after last: Int, score: Int) {
            if p == term.count { best = max(best ?? Int.min, score); return }
            for index in (last + 1) ..< max(last + 1, text.count) where text[index] == term[p] {
                var gain = FuzzyMatch.scorePerCharacter
                if index == 0 || isBoundary(text[index - 1]) { gain += FuzzyMatch.boundaryBonus }
                if p > 0 {
                    let gap = index - last - 1
                    gain += gap == 0 ? FuzzyMatch.consecutiveBonus
                        : -(FuzzyMatch.gapOpenPenalty + FuzzyMatch.gapExtensionPenalty * (gap - 1))
                }
                place(p + 1, after: index, score: score + gain)
            }
        }
        place(0, after: -1, score: 0)
        return best
    }

    @Test("the score is the best of all alignments (5,000 generated cases against brute force)")
    func optimalAgainstBruteForce() {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("abz .-".utf8)
        for _ in 0 ..< 5_000 {
            let text = (0 ..< Int.random(in: 0 ... 12, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }
            let term = (0 ..< Int.random(in: 1 ... 4, using: &generator)).map { _ in Array("abz".utf8).randomElement(using: &generator)! }
            let expected = Self.bruteForce(term, text)
            let actual = FuzzyMatch.score(term: term, candidate: text)
            #expect(actual == expected, "\(String(decoding: term, as: UTF8.self)) in \(String(decoding: text, as: UTF8.self))")
            if actual != expected { return }
        }
    }

    func entry(_ title: String, username: String = "", _ match: MatchKind?) throws -> RankedCredential {
        RankedCredential(credential: Credential(id: UUID(), title: title, services: [try ServiceIdentifier("x.example")],
                                                username: username, secret: SecretReference(offset: 0, count: 0),
                                                created: Timestamp(millisecondsSince1970: 0), modified: Timestamp(millisecondsSince1970: 0)),
                         match: match, matchedService: nil, requestIndex: 0)
    }

    @Test("contiguous beats scattered, even when the scattered one comes first or scores below zero")
    func contiguousBeatsScattered() throws {
        let list = FilterableList([try entry("aaa zz", nil), try entry("bbb z", username: String(repeating: "x", count: 100) + " z", nil),
                                   try entry("ccc zz", nil)])
        let filtered = list.filteredPositions(by: "zz")
        #expect(filtered.positions.map { list.ranked[$0].credential.title } == ["aaa zz", "ccc zz", "bbb z"])
        #expect(filtered.best == 0)
        #expect(try #require(FuzzyMatch.score(term: Array("zz".utf8), candidate: Array("z xxxxx zz".utf8)))
                > FuzzyMatch.score(term: Array("zz".utf8), candidate: Array("z xxxxx z".utf8)) ?? .min)
    }

    @Test("10,000 sites: typing 9999 puts 'Site number 9999' first")
    func tenThousandSites() throws {
        let list = FilterableList(try (0 ..< 10_000).map { try entry("Site number \($0)", username: "user\($0)", .sameSite) })
        let filtered = list.filteredPositions(by: "9999")
        #expect(list.ranked[filtered.positions[0]].credential.title == "Site number 9999")
        #expect(filtered.best == 0)
    }

    @Test("the best match is found whatever its section; with matches only, the other section is dropped")
    func bestAcrossSections() throws {
        let list = FilterableList([try entry("GitHub", .sameHost), try entry("GitLab", .sameSite), try entry("Google", nil)])
        let all = list.filteredPositions(by: "goo")
        #expect(all.best.map { list.ranked[all.positions[$0]].credential.title } == "Google")
        let matchesOnly = list.filteredPositions(by: "g", matchesOnly: true)
        #expect(matchesOnly.positions.allSatisfy { list.ranked[$0].match != nil } && matchesOnly.positions.count == 2)
    }
}
