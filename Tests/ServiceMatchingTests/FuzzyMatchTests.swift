import Testing
@testable import ServiceMatching

@Suite struct FuzzyMatchTests {
    func score(_ query: String, _ candidate: String) -> Int? {
        FuzzyMatch.score(query: FuzzyMatch.terms(query), candidate: FuzzyMatch.searchBytes(candidate))
    }

    @Test func subsequencesMatchOthersDoNot() {
        #expect(score("ghal", "GitHub alice github.com") != nil)
        #expect(score("xyz", "GitHub alice") == nil)
        #expect(score("", "anything") == 0)
        #expect(score("alice git", "GitHub alice") != nil)
        #expect(score("alice gitlab", "GitHub alice") == nil)
    }

    @Test func boundariesAndRunsScoreHigher() throws {
        let boundary = try #require(score("gh", "git hub"))
        let inside = try #require(score("gh", "gxxh"))
        #expect(boundary > inside)
        let together = try #require(score("hub", "github"))
        let apart = try #require(score("hub", "hxuxb"))
        #expect(together > apart)
        let tight = try #require(score("abc", "xx abc"))
        let scattered = try #require(score("abc", "a----b----c"))
        #expect(tight > scattered)
    }
}
