import Testing
@testable import ServiceMatching
@testable import VaultModel

/// Filtering a ranked list as the user types: sections kept, fuzzy scores within them, and the
/// regressions that first-occurrence scoring and a score spilling into the section bit caused.
@Suite struct FilterableListTests {
    func entry(_ title: String, username: String = "", _ match: MatchKind?) throws -> RankedCredential {
        RankedCredential(
            credential: try credential(title, username: username), match: match, matchedService: nil, requestIndex: 0)
    }

    @Test func filteringKeepsSectionsAndReScoresWithinThem() throws {
        let list = FilterableList([
            try entry("mxaxixl", .sameHost), try entry("mail", .sameSite),
            try entry("nothing", .sameHost), try entry("mail other", nil),
        ])
        // "mail" outscores "mxaxixl" although ranked below it; the non-matching section stays last.
        #expect(list.filtered(by: "mail").map(\.credential.title) == ["mail", "mxaxixl", "mail other"])
        #expect(list.filtered(by: "").count == 4)
        #expect(list.filtered(by: "zzz").isEmpty)
    }

    @Test("contiguous beats scattered, even when the scattered one comes first or scores below zero")
    func contiguousBeatsScattered() throws {
        let list = FilterableList([
            try entry("aaa zz", nil), try entry("bbb z", username: String(repeating: "x", count: 100) + " z", nil),
            try entry("ccc zz", nil),
        ])
        let filtered = list.filteredPositions(by: "zz")
        #expect(filtered.positions.map { list.ranked[$0].credential.title } == ["aaa zz", "ccc zz", "bbb z"])
        #expect(filtered.best == 0)
        #expect(
            try #require(FuzzyMatch.score(term: Array("zz".utf8), candidate: Array("z xxxxx zz".utf8)))
                > FuzzyMatch.score(term: Array("zz".utf8), candidate: Array("z xxxxx z".utf8)) ?? .min)
    }

    @Test("10,000 sites: typing 9999 puts 'Site number 9999' first")
    func tenThousandSites() throws {
        let list = FilterableList(
            try (0 ..< 10_000).map { try entry("Site number \($0)", username: "user\($0)", .sameSite) })
        let filtered = list.filteredPositions(by: "9999")
        #expect(list.ranked[filtered.positions[0]].credential.title == "Site number 9999")
        #expect(filtered.best == 0)
    }

    @Test("the best match is found whatever its section; with matches only, the other section is dropped")
    func bestAcrossSections() throws {
        let list = FilterableList([
            try entry("GitHub", .sameHost), try entry("GitLab", .sameSite), try entry("Google", nil),
        ])
        let all = list.filteredPositions(by: "goo")
        #expect(all.best.map { list.ranked[all.positions[$0]].credential.title } == "Google")
        let matchesOnly = list.filteredPositions(by: "g", matchesOnly: true)
        #expect(matchesOnly.positions.allSatisfy { list.ranked[$0].match != nil } && matchesOnly.positions.count == 2)
    }
}
