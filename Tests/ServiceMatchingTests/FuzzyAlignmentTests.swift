import Foundation
import Testing
@testable import ServiceMatching

/// The filter's score is the best alignment's, checked against brute force over every alignment
/// of generated short texts (the regressions that first-occurrence scoring and a score spilling
/// into the section bit caused are FilterableListTests', in VaultModel).
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
                    gain +=
                        gap == 0
                        ? FuzzyMatch.consecutiveBonus
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
            let text = (0 ..< Int.random(in: 0 ... 12, using: &generator)).map { _ in
                alphabet.randomElement(using: &generator)!
            }
            let term = (0 ..< Int.random(in: 1 ... 4, using: &generator)).map { _ in
                Array("abz".utf8).randomElement(using: &generator)!
            }
            let expected = Self.bruteForce(term, text)
            let actual = FuzzyMatch.score(term: term, candidate: text)
            #expect(
                actual == expected,
                "\(String(decoding: term, as: UTF8.self)) in \(String(decoding: text, as: UTF8.self))")
            if actual != expected { return }
        }
    }
}
