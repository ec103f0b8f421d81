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
    static let hosts = ["example.com", "www.example.com", "login.example.com", "a.b.example.com", "xample.com", "bexample.com",
                        "example.org", "com", "co.uk", "example.co.uk", "shop.example.co.uk", "localhost", "intranet",
                        "xn--bcher-kva.example", "www.xn--bcher-kva.example", "192.168.1.10", "github.com", "api.github.com",
                        "gist.github.com", "githubusercontent.com", "amazon.com", "www.amazon.co.uk", "amazon.de", "smile.amazon.com"]

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
            let requests = try (0 ..< Int.random(in: 1 ... 2, using: &rng)).map { _ in try ServiceIdentifier(Self.hosts.randomElement(using: &rng)!) }
            let filter = HostFilter(requests: requests, context: context)
            let expected = credentialHosts.indices.filter { credentialHosts[$0].contains { filter.mayMatch(host: $0) } }
            let found = HostIndex(hosts: credentialHosts).positions(passing: filter)
            #expect(found == expected, "\(credentialHosts) for \(requests.map(\.host))")
            if !expected.isEmpty { nonEmpty += 1 }
        }
        #expect(nonEmpty > 1000)
    }

    @Test func labelSuffixesAreWhatANameLiesUnder() {
        let suffixes = HostIndex.labelSuffixes(of: Array("a.b.example.com".utf8)).map { String(decoding: $0, as: UTF8.self) }
        #expect(suffixes == ["a.b.example.com", "b.example.com", "example.com", "com"])
        #expect(HostIndex.labelSuffixes(of: Array("localhost".utf8)).count == 1)
        #expect(HostIndex.labelSuffixes(of: Array("trailing.".utf8)).map { String(decoding: $0, as: UTF8.self) } == ["trailing.", ""])
    }

    @Test func anEmptyVaultHasNoCandidates() throws {
        let context = RankingContext.testing(suffixes: suffixes)
        #expect(HostIndex(hosts: []).positions(passing: HostFilter(requests: [try ServiceIdentifier("github.com")], context: context)).isEmpty)
    }
}
