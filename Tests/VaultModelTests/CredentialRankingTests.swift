import Foundation
import Platform
import PwtuiTestSupport
import ServiceMatching
import Testing
@testable import VaultModel

/// Which credentials come first: tiers, then the request's position, closer parents, rank, use
/// and title (the tiers themselves are ServiceMatchTests').
@Suite struct CredentialRankingTests {
    let suffixes: PublicSuffixList = LibPSL() ?? NoPublicSuffixList()

    func context(equivalents: [[String]] = [], usage: UsageHistory = UsageHistory()) -> RankingContext {
        .testing(suffixes: suffixes, equivalents: equivalents, usage: usage)
    }

    func ranked(_ credentials: [Credential], _ requests: [String], _ context: RankingContext? = nil) throws -> [String]
    {
        CredentialRanking.matches(
            credentials, for: try requests.map { try ServiceIdentifier($0) }, context: context ?? self.context()
        )
        .map(\.credential.title)
    }

    @Test func tiersOrderTheListAndCloserParentsWin() throws {
        let all = [
            try credential("site", ["login.github.com"]), try credential("root", ["github.com"]),
            try credential("api", ["api.github.com"]), try credential("exact", ["https://x.api.github.com/login"]),
            try credential("host", ["x.api.github.com"]), try credential("other", ["gitlab.com"]),
        ]
        let result = CredentialRanking.rank(
            all, for: [try ServiceIdentifier("https://x.api.github.com/login")], context: context())
        #expect(result.map(\.credential.title) == ["exact", "host", "api", "root", "site", "other"])
        #expect(result.map(\.match) == [.exactURL, .sameHost, .parentDomain, .parentDomain, .sameSite, nil])
    }

    @Test func tiesGoToRankThenRecentUseThenUseCountThenTitle() throws {
        let all = try ["d", "c", "b", "a"].map { try credential($0, ["example.com"]) }
        #expect(try ranked(all, ["example.com"]) == ["a", "b", "c", "d"])
        var usage = UsageHistory()
        usage.recordUse(of: all[1].id, for: "example.com", at: Timestamp(millisecondsSince1970: 100))
        usage.recordUse(of: all[0].id, for: "example.com", at: Timestamp(millisecondsSince1970: 200))
        usage.recordUse(of: all[2].id, for: "other.example", at: Timestamp(millisecondsSince1970: 300))
        usage.recordUse(of: all[2].id, for: "other.example", at: Timestamp(millisecondsSince1970: 301))
        // d used last for this service, then c; b has uses but for another service; a none.
        #expect(try ranked(all, ["example.com"], context(usage: usage)) == ["d", "c", "b", "a"])
        let ranked = try credential("ranked", ["example.com"], rank: 1)
        #expect(try self.ranked(all + [ranked], ["example.com"], context(usage: usage)).first == "ranked")
    }

    @Test func earlierRequestsWeighMoreWithinATier() throws {
        let all = [try credential("b", ["b.example"]), try credential("a", ["a.example"])]
        #expect(try ranked(all, ["b.example", "a.example"]) == ["b", "a"])
        #expect(try ranked(all, ["a.example", "b.example"]) == ["a", "b"])
        // A better tier for a later request wins over a weaker one for an earlier request.
        let mixed = [try credential("site", ["login.one.example"]), try credential("exact", ["two.example"])]
        #expect(try ranked(mixed, ["www.one.example", "two.example"]) == ["exact", "site"])
    }

    // MARK: Properties

    func randomCredentials(_ count: Int, using rng: inout some RandomNumberGenerator) throws -> [Credential] {
        let hosts = [
            "github.com", "api.github.com", "gist.github.com", "alice.github.io", "bob.github.io",
            "example.com", "www.example.com", "*.example.com", "example.co.uk", "https://github.com/login",
            "localhost:3000", "[::1]:8080", "box.com", "dropbox.com",
        ]
        return try (0 ..< count).map { index in
            try credential(
                "c\(Int.random(in: 0 ... 9, using: &rng))",
                (0 ... Int.random(in: 0 ... 2, using: &rng)).map { _ in
                    hosts.randomElement(using: &rng) ?? "github.com"
                }, rank: Int32.random(in: 0 ... 2, using: &rng))
        }
    }

    @Test func rankingIsDeterministicWhateverTheVaultOrder() throws {
        var rng = SystemRandomNumberGenerator()
        for _ in 0 ..< 30 {
            let all = try randomCredentials(40, using: &rng)
            let requests = [
                try ServiceIdentifier("https://github.com/login/x"), try ServiceIdentifier("www.example.com"),
            ]
            let once = CredentialRanking.rank(all, for: requests, context: context()).map(\.credential.id)
            let shuffled = CredentialRanking.rank(all.shuffled(using: &rng), for: requests, context: context()).map(
                \.credential.id)
            #expect(once == shuffled)
        }
    }

    @Test func anUnrelatedCredentialNeverReordersTheOthers() throws {
        var rng = SystemRandomNumberGenerator()
        for _ in 0 ..< 30 {
            let all = try randomCredentials(40, using: &rng)
            let requests = [try ServiceIdentifier("api.github.com")]
            let before = CredentialRanking.rank(all, for: requests, context: context()).map(\.credential.id)
            let unrelated = try credential("unrelated", ["unrelated.example.org"], rank: 99)
            let after = CredentialRanking.rank(all + [unrelated], for: requests, context: context())
                .map(\.credential.id).filter { $0 != unrelated.id }
            #expect(before == after)
        }
    }
}
