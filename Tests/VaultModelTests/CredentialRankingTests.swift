import Foundation
import Testing
@testable import VaultModel

@Suite struct ServiceIdentifierTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let text: String
        let host: String
        var scheme: ServiceIdentifier.Scheme? = nil
        var port: UInt16? = nil
        var path: String? = nil
        var wildcard = false
        var kind = ServiceIdentifier.HostKind.name
        var testDescription: String { text }
    }

    @Test(arguments: [
        Case(text: "github.com", host: "github.com"),
        Case(text: "GitHub.COM.", host: "github.com"),
        Case(text: "https://github.com:8443/login?x=1#y", host: "github.com", scheme: .https, port: 8443, path: "/login"),
        Case(text: "HTTPS://GitHub.COM:443/Path", host: "github.com", scheme: .https, path: "/Path"),
        Case(text: "http://example.com:80", host: "example.com", scheme: .http, path: "/"),
        Case(text: "https://example.com?q", host: "example.com", scheme: .https, path: "/"),
        Case(text: "webcredentials:*.example.com:8443", host: "example.com", port: 8443, wildcard: true),
        Case(text: "WebCredentials:Example.COM", host: "example.com"),
        Case(text: "*.example.com", host: "example.com", wildcard: true),
        Case(text: "[::1]:8080", host: "[::1]", port: 8080, kind: .ipv6),
        Case(text: "http://[2001:DB8::1]/", host: "[2001:db8::1]", scheme: .http, path: "/", kind: .ipv6),
        Case(text: "192.168.1.10:8443", host: "192.168.1.10", port: 8443, kind: .ipv4),
        Case(text: "localhost", host: "localhost"),
        Case(text: "bücher.de", host: "xn--bcher-kva.de"),
        Case(text: "BÜCHER.de", host: "xn--bcher-kva.de"),
        Case(text: "xn--bcher-kva.de", host: "xn--bcher-kva.de"),
        Case(text: "münchen.example", host: "xn--mnchen-3ya.example"),
        Case(text: "中国.cn", host: "xn--fiqs8s.cn"),
    ])
    func parsesAndNormalises(_ c: Case) throws {
        let service = try ServiceIdentifier(c.text)
        #expect(service.text == c.text)
        #expect(service.host == c.host)
        #expect(service.scheme == c.scheme)
        #expect(service.port == c.port)
        #expect(service.path == c.path)
        #expect(service.isWildcard == c.wildcard)
        #expect(service.hostKind == c.kind)
    }

    @Test(arguments: [
        ("", "empty"), ("git hub.com", "space"), ("a.com\n", "control"), ("a.com\u{00A0}", "space"),
        ("foo.*.com", "'*' may only begin"), ("*foo.com", "'*' may only begin"), ("*.com", "top-level"),
        ("x.com:99999", "'99999' is out of range"), ("x.com:0", "out of range"), ("x.com:ab", "'ab' is not a number"),
        ("ftp://x.com", "unsupported scheme 'ftp'"), ("github.com/login", "'/login' is a path"),
        ("https://", "no host"), ("*.", "no host"), ("::1", "brackets"), ("[::1", "without closing"),
        ("a..b.com", "empty label"), ("exa<mple.com", "'<'"), ("999.1.1.1", "not an IPv4"),
        ("*.127.0.0.1", "address cannot have a wildcard"),
    ])
    func refusesWithAMessageQuotingTheProblem(text: String, fragment: String) {
        do {
            _ = try ServiceIdentifier(text)
            Issue.record("'\(text)' was accepted")
        } catch {
            #expect("\(error)".contains(fragment), "\(error)")
            #expect("\(error)".contains("'\(text)'"), "\(error)")
        }
    }

    @Test func unicodeAndPunycodeFormsAreEqual() throws {
        #expect(try ServiceIdentifier("bücher.de") == ServiceIdentifier("xn--bcher-kva.de"))
        #expect(try ServiceIdentifier("https://example.com:443/") == ServiceIdentifier("https://example.com"))
        #expect(try ServiceIdentifier("example.com") != ServiceIdentifier("example.com:8443"))
    }

    @Test func punycodeMatchesRFC3492Samples() {
        #expect(Punycode.encode("bücher") == "bcher-kva")
        #expect(Punycode.encode("münchen") == "mnchen-3ya")
        #expect(Punycode.encode("中国") == "fiqs8s")
        // RFC 3492 7.1 (B) Chinese (simplified).
        #expect(Punycode.encode("他们为什么不说中文") == "ihqwcrb4cv8a8dqg056pqjye")
        // RFC 3492 7.1 (L) 3<nen>B<gumi><kinpachi><sensei>.
        #expect(Punycode.encode("3年B組金八先生") == "3B-ww4c5e180e575a65lsy2b")
    }
}

@Suite struct CredentialRankingTests {
    let suffixes: PublicSuffixList = LibPSL() ?? NoPublicSuffixList()

    func credential(_ title: String, _ services: [String], rank: Int32 = 0) throws -> Credential {
        Credential(id: UUID(), title: title, services: try services.map { try ServiceIdentifier($0) },
                   username: title, secret: SecretReference(offset: 0, count: 0), rank: rank,
                   created: Timestamp(millisecondsSince1970: 0), modified: Timestamp(millisecondsSince1970: 0))
    }

    func context(equivalents: [[String]] = [], usage: UsageHistory = UsageHistory()) -> RankingContext {
        var domains = EquivalentDomains()
        for group in equivalents { domains.add(group, at: Timestamp(millisecondsSince1970: 1)) }
        return RankingContext(suffixes: suffixes, equivalents: domains, usage: usage)
    }

    func tier(_ stored: String, _ request: String, equivalents: [[String]] = []) throws -> MatchKind? {
        CredentialRanking.match(stored: try ServiceIdentifier(stored), request: try ServiceIdentifier(request),
                                context: context(equivalents: equivalents))
    }

    @Test func theListLoads() {
        #expect(suffixes is LibPSL, "libpsl's list is needed for the same-site cases")
        #expect(suffixes.registrableDomain(of: "www.amazon.co.uk") == "amazon.co.uk")
    }

    struct TierCase: Sendable, CustomTestStringConvertible {
        let stored: String
        let request: String
        let expected: MatchKind?
        var testDescription: String { "\(stored) for \(request) → \(expected?.rawValue ?? "none")" }
    }

    @Test(arguments: [
        // exact URL and path prefix
        TierCase(stored: "https://github.com/login", request: "https://github.com/login", expected: .exactURL),
        TierCase(stored: "https://github.com/login", request: "https://github.com/login?return=1#x", expected: .exactURL),
        TierCase(stored: "https://github.com/login", request: "https://github.com/login/two-factor", expected: .pathPrefix),
        TierCase(stored: "https://github.com/login", request: "https://github.com/loginx", expected: .sameHost),
        TierCase(stored: "https://github.com/login/", request: "https://github.com/login/x", expected: .pathPrefix),
        TierCase(stored: "https://github.com/", request: "https://github.com/", expected: .exactURL),
        TierCase(stored: "https://github.com/login", request: "github.com", expected: .sameHost),
        // same host, ports, schemes
        TierCase(stored: "github.com", request: "https://github.com/login", expected: .sameHost),
        TierCase(stored: "github.com", request: "github.com", expected: .sameHost),
        TierCase(stored: "example.com:8443", request: "https://example.com:8443/", expected: .sameHost),
        TierCase(stored: "example.com:8443", request: "https://example.com/", expected: nil),
        TierCase(stored: "example.com", request: "https://example.com:8443/", expected: nil),
        TierCase(stored: "example.com:443", request: "https://example.com/", expected: .sameHost),
        TierCase(stored: "https://example.com", request: "http://example.com", expected: nil),
        TierCase(stored: "https://example.com", request: "http://www.example.com", expected: nil),
        TierCase(stored: "http://example.com", request: "https://example.com", expected: .sameHost),
        TierCase(stored: "[::1]:8080", request: "http://[::1]:8080/", expected: .sameHost),
        TierCase(stored: "[::1]:8080", request: "http://[::1]:8081/", expected: nil),
        TierCase(stored: "localhost", request: "localhost", expected: .sameHost),
        TierCase(stored: "localhost", request: "http://localhost:3000", expected: nil),
        TierCase(stored: "localhost:3000", request: "http://localhost:3000/app", expected: .sameHost),
        TierCase(stored: "bücher.de", request: "https://xn--bcher-kva.de/", expected: .sameHost),
        TierCase(stored: "xn--bcher-kva.de", request: "www.bücher.de", expected: .parentDomain),
        TierCase(stored: "10.0.0.1", request: "10.0.0.1", expected: .sameHost),
        TierCase(stored: "127.0.0.1", request: "localhost", expected: nil),
        // parent domain: whole labels only
        TierCase(stored: "github.com", request: "api.github.com", expected: .parentDomain),
        TierCase(stored: "box.com", request: "dropbox.com", expected: nil),
        TierCase(stored: "box.com", request: "www.box.com", expected: .parentDomain),
        TierCase(stored: "mybank.com", request: "digital.mybank.com", expected: .parentDomain),
        TierCase(stored: "digital.mybank.com", request: "digitalocean.com", expected: nil),
        TierCase(stored: "ocean.com", request: "digitalocean.com", expected: nil),
        // wildcard: strict subdomains only
        TierCase(stored: "*.example.com", request: "a.example.com", expected: .wildcard),
        TierCase(stored: "*.example.com", request: "a.b.example.com", expected: .wildcard),
        TierCase(stored: "*.example.com", request: "example.com", expected: nil),
        TierCase(stored: "webcredentials:*.example.com:8443", request: "https://a.example.com:8443/", expected: .wildcard),
        TierCase(stored: "webcredentials:*.example.com:8443", request: "https://a.example.com/", expected: nil),
        // same site, per the Public Suffix List (private section included)
        TierCase(stored: "login.example.com", request: "www.example.com", expected: .sameSite),
        TierCase(stored: "alice.github.io", request: "bob.github.io", expected: nil),
        TierCase(stored: "alice.github.io", request: "www.alice.github.io", expected: .parentDomain),
        TierCase(stored: "github.io", request: "alice.github.io", expected: nil),  // a public suffix: the names under it are others' sites,
        TierCase(stored: "login.amazon.co.uk", request: "www.amazon.co.uk", expected: .sameSite),
        TierCase(stored: "other.co.uk", request: "www.amazon.co.uk", expected: nil),
        TierCase(stored: "amazon.com", request: "amazon.com.be", expected: nil),
        TierCase(stored: "https://github.com/login", request: "gist.github.com", expected: .sameSite),
    ])
    func tiers(_ c: TierCase) throws {
        #expect(try tier(c.stored, c.request) == c.expected)
        // The host prefilter never rules out a pair that matches.
        let filter = HostFilter(requests: [try ServiceIdentifier(c.request)], context: context())
        if c.expected != nil { #expect(filter.mayMatch(host: try ServiceIdentifier(c.stored).host)) }
    }

    @Test func theHostFilterRulesOutOtherSitesAndKeepsEquivalents() throws {
        let filter = HostFilter(requests: [try ServiceIdentifier("https://www.amazon.co.uk/")],
                                context: context(equivalents: [["amazon.com", "amazon.co.uk"]]))
        for host in ["www.amazon.co.uk", "amazon.co.uk", "co.uk", "login.amazon.co.uk", "amazon.com", "smile.amazon.com"] {
            #expect(filter.mayMatch(host: host), "\(host)")
        }
        for host in ["other.co.uk", "mazon.co.uk", "amazon.com.be", "dropbox.com", "www.amazon.co.uk.evil.example"] {
            #expect(!filter.mayMatch(host: host), "\(host)")
        }
    }

    @Test func equivalentDomainsMatchAndAreMarked() throws {
        let groups = [["amazon.com", "amazon.com.be", "amazon.co.uk"]]
        #expect(try tier("amazon.com", "amazon.com.be", equivalents: groups) == .equivalent)
        #expect(try tier("www.amazon.co.uk", "www.amazon.com.be", equivalents: groups) == .equivalent)
        #expect(try tier("amazon.com", "https://smile.amazon.co.uk/", equivalents: groups) == .equivalent)
        #expect(try tier("amazon.de", "amazon.com", equivalents: groups) == nil)
        #expect(try tier("https://amazon.com", "http://amazon.com.be", equivalents: groups) == nil)
    }

    func ranked(_ credentials: [Credential], _ requests: [String], _ context: RankingContext? = nil) throws -> [String] {
        CredentialRanking.matches(credentials, for: try requests.map { try ServiceIdentifier($0) }, context: context ?? self.context())
            .map(\.credential.title)
    }

    @Test func tiersOrderTheListAndCloserParentsWin() throws {
        let all = [try credential("site", ["login.github.com"]), try credential("root", ["github.com"]),
                   try credential("api", ["api.github.com"]), try credential("exact", ["https://x.api.github.com/login"]),
                   try credential("host", ["x.api.github.com"]), try credential("other", ["gitlab.com"])]
        let result = CredentialRanking.rank(all, for: [try ServiceIdentifier("https://x.api.github.com/login")], context: context())
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

    @Test func usageHistoryRoundTripsThroughText() {
        var usage = UsageHistory()
        let id = UUID()
        usage.recordUse(of: id, for: "github.com", at: Timestamp(millisecondsSince1970: 5))
        usage.recordUse(of: id, for: "github.com", at: Timestamp(millisecondsSince1970: 9))
        let again = UsageHistory(text: usage.text + "garbage line\n")
        #expect(again.useCount(id) == 2)
        #expect(again.lastUsed(id, for: "github.com") == Timestamp(millisecondsSince1970: 9))
    }

    // MARK: Properties

    func randomCredentials(_ count: Int, using rng: inout some RandomNumberGenerator) throws -> [Credential] {
        let hosts = ["github.com", "api.github.com", "gist.github.com", "alice.github.io", "bob.github.io",
                     "example.com", "www.example.com", "*.example.com", "example.co.uk", "https://github.com/login",
                     "localhost:3000", "[::1]:8080", "box.com", "dropbox.com"]
        return try (0 ..< count).map { index in
            try credential("c\(Int.random(in: 0 ... 9, using: &rng))", (0 ... Int.random(in: 0 ... 2, using: &rng)).map { _ in
                hosts.randomElement(using: &rng) ?? "github.com"
            }, rank: Int32.random(in: 0 ... 2, using: &rng))
        }
    }

    @Test func rankingIsDeterministicWhateverTheVaultOrder() throws {
        var rng = SystemRandomNumberGenerator()
        for _ in 0 ..< 30 {
            let all = try randomCredentials(40, using: &rng)
            let requests = [try ServiceIdentifier("https://github.com/login/x"), try ServiceIdentifier("www.example.com")]
            let once = CredentialRanking.rank(all, for: requests, context: context()).map(\.credential.id)
            let shuffled = CredentialRanking.rank(all.shuffled(using: &rng), for: requests, context: context()).map(\.credential.id)
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

    @Test func filteringKeepsSectionsAndReScoresWithinThem() throws {
        func entry(_ title: String, _ match: MatchKind?) throws -> RankedCredential {
            RankedCredential(credential: Credential(id: UUID(), title: title, services: [try ServiceIdentifier("x.example")],
                                                    username: "", secret: SecretReference(offset: 0, count: 0),
                                                    created: Timestamp(millisecondsSince1970: 0), modified: Timestamp(millisecondsSince1970: 0)),
                             match: match, matchedService: nil, requestIndex: 0)
        }
        let list = FilterableList([try entry("mxaxixl", .sameHost), try entry("mail", .sameSite),
                                   try entry("nothing", .sameHost), try entry("mail other", nil)])
        // "mail" outscores "mxaxixl" although ranked below it; the non-matching section stays last.
        #expect(list.filtered(by: "mail").map(\.credential.title) == ["mail", "mxaxixl", "mail other"])
        #expect(list.filtered(by: "").count == 4)
        #expect(list.filtered(by: "zzz").isEmpty)
    }
}
