import Foundation
import PwtuiTestSupport
@testable import ServiceMatching
import Testing

/// `HostIndex.positions(passing:)` must be exactly the credentials with a host the filter
/// accepts: the index replaces the filter's pass over every credential in `get`, so a miss
/// would be a credential `get` can no longer find.
@Suite struct HostIndexTests {
    let suffixes: PublicSuffixList = LibPSL() ?? NoPublicSuffixList()

    /// Hosts as `ServiceIdentifier` stores them, with the awkward ones: a public suffix alone, a
    /// bare TLD, a single label, deep subdomains, an IDN, an IP address, a prefix that is not a
    /// label boundary (`xample.com`, `bexample.com`), and built-in equivalents (Apple's groups).
    static let hosts = [
        "example.com", "www.example.com", "login.example.com", "a.b.example.com", "xample.com", "bexample.com",
        "example.org", "com", "co.uk", "example.co.uk", "shop.example.co.uk", "localhost", "intranet",
        "xn--bcher-kva.example", "www.xn--bcher-kva.example", "192.168.1.10", "github.com", "api.github.com",
        "gist.github.com", "githubusercontent.com", "amazon.com", "www.amazon.co.uk", "amazon.de", "smile.amazon.com",
    ]

    @Test("the index finds exactly what the filter accepts (2,000 generated vaults and requests, seeded)")
    func agreesWithTheFilter() throws {
        var rng = SeededGenerator(seed: 11)
        let groups = [["amazon.com", "amazon.co.uk", "amazon.de"], ["example.com", "example.org"]]
        var nonEmpty = 0
        for round in 0 ..< 2000 {
            let credentialHosts = (0 ..< Int.random(in: 0 ... 30, using: &rng)).map { _ in
                (0 ..< Int.random(in: 0 ... 3, using: &rng)).map { _ in Self.hosts.randomElement(using: &rng)! }
            }
            let context = RankingContext.testing(suffixes: suffixes, equivalents: round % 2 == 0 ? groups : [])
            let requests = try (0 ..< Int.random(in: 1 ... 2, using: &rng)).map { _ in
                try ServiceIdentifier(Self.hosts.randomElement(using: &rng)!)
            }
            let filter = HostFilter(requests: requests, context: context)
            let expected = credentialHosts.indices.filter { credentialHosts[$0].contains { filter.mayMatch(host: $0) } }
            let found = HostIndex(hosts: credentialHosts).positions(passing: filter)
            #expect(found == expected, "\(credentialHosts) for \(requests.map(\.host))")
            if !expected.isEmpty { nonEmpty += 1 }
        }
        #expect(nonEmpty > 1000)
    }

    /// The same, on hosts made from every rule of the Public Suffix List Debian installs
    /// (`PublicSuffixCorpusTests.hosts`: the rule, names under it, IDN and 63-byte labels, names
    /// near 253 bytes, wildcard and exception rules): 6,000 credentials of real shapes, and 400
    /// requests drawn from the same corpus.
    @Test("the index finds exactly what the filter accepts, on hosts from the whole Public Suffix List")
    func agreesWithTheFilterOnTheSuffixList() throws {
        let reference = try ReferencePublicSuffixRules()
        let psl = try #require(LibPSL(file: ReferencePublicSuffixRules.systemFile))
        let context = RankingContext.testing(suffixes: psl, equivalents: [["example.com", "example.org"]])
        let services = PublicSuffixCorpusTests.hosts(reference).compactMap { try? ServiceIdentifier($0.unicode) }
        #expect(services.count > 50_000)
        var rng = SeededGenerator(seed: 17)
        // 1,500 credentials and 120 requests in `make test`; 6,000 and 400 in `make bench-properties`.
        let credentialHosts = (0 ..< PropertySize.count(1500, full: 6000)).map { _ in
            (0 ..< Int.random(in: 1 ... 3, using: &rng)).map { _ in services.randomElement(using: &rng)!.host }
        }
        let index = HostIndex(hosts: credentialHosts)
        var nonEmpty = 0
        let requests = PropertySize.count(120, full: 400)
        for _ in 0 ..< requests {
            // A request under a stored host's parent, so that most requests have matches.
            let stored = credentialHosts.randomElement(using: &rng)!.randomElement(using: &rng)!
            let request =
                try Bool.random(using: &rng)
                ? ServiceIdentifier(stored) : (try? ServiceIdentifier("www." + stored)) ?? ServiceIdentifier(stored)
            let filter = HostFilter(requests: [request], context: context)
            let expected = credentialHosts.indices.filter { credentialHosts[$0].contains { filter.mayMatch(host: $0) } }
            #expect(index.positions(passing: filter) == expected, "\(request.host)")
            if !expected.isEmpty { nonEmpty += 1 }
        }
        #expect(nonEmpty > requests * 3 / 4)
    }

    @Test func labelSuffixesAreWhatANameLiesUnder() {
        let suffixes = HostIndex.labelSuffixes(of: Array("a.b.example.com".utf8)).map {
            String(decoding: $0, as: UTF8.self)
        }
        #expect(suffixes == ["a.b.example.com", "b.example.com", "example.com", "com"])
        #expect(HostIndex.labelSuffixes(of: Array("localhost".utf8)).count == 1)
        #expect(
            HostIndex.labelSuffixes(of: Array("trailing.".utf8)).map { String(decoding: $0, as: UTF8.self) } == [
                "trailing.", "",
            ])
    }

    @Test func anEmptyVaultHasNoCandidates() throws {
        let context = RankingContext.testing(suffixes: suffixes)
        #expect(
            HostIndex(hosts: []).positions(
                passing: HostFilter(requests: [try ServiceIdentifier("github.com")], context: context)
            ).isEmpty)
    }
}
