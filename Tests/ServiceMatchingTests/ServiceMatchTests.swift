import Foundation
import Platform
import PwtuiTestSupport
import Testing
@testable import ServiceMatching

/// The tiers of one stored identifier against one request, the host prefilter that must never
/// rule out a matching pair, and the use history's text form.
@Suite struct ServiceMatchTests {
    let suffixes: PublicSuffixList = LibPSL() ?? NoPublicSuffixList()

    func context(equivalents: [[String]] = []) -> RankingContext {
        .testing(suffixes: suffixes, equivalents: equivalents)
    }

    func tier(_ stored: String, _ request: String, equivalents: [[String]] = []) throws -> MatchKind? {
        ServiceMatch.tier(
            stored: try ServiceIdentifier(stored), request: try ServiceIdentifier(request),
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
        TierCase(
            stored: "https://github.com/login", request: "https://github.com/login?return=1#x", expected: .exactURL),
        TierCase(
            stored: "https://github.com/login", request: "https://github.com/login/two-factor", expected: .pathPrefix),
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
        TierCase(
            stored: "webcredentials:*.example.com:8443", request: "https://a.example.com:8443/", expected: .wildcard),
        TierCase(stored: "webcredentials:*.example.com:8443", request: "https://a.example.com/", expected: nil),
        // same site, per the Public Suffix List (private section included)
        TierCase(stored: "login.example.com", request: "www.example.com", expected: .sameSite),
        TierCase(stored: "alice.github.io", request: "bob.github.io", expected: nil),
        TierCase(stored: "alice.github.io", request: "www.alice.github.io", expected: .parentDomain),
        // A public suffix: the names under it are others' sites.
        TierCase(stored: "github.io", request: "alice.github.io", expected: nil),
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

    /// Issue 38: services of other schemes match by host and port with the web's tiers, and one
    /// port rule holds for every command (a request for a bare host takes any port).
    @Test(arguments: [
        // other schemes: kept, matched by host and port
        TierCase(stored: "ssh://build.example", request: "build.example", expected: .sameHost),
        TierCase(stored: "ssh://build.example", request: "ssh://build.example", expected: .exactURL),
        TierCase(stored: "ssh://build.example", request: "sftp://build.example/home", expected: .sameHost),
        TierCase(stored: "ssh://build.example", request: "https://build.example", expected: nil),
        TierCase(stored: "https://build.example", request: "ssh://build.example", expected: nil),
        TierCase(stored: "build.example", request: "ssh://build.example", expected: .sameHost),
        TierCase(stored: "sftp://files.example:2222/home", request: "files.example", expected: .sameHost),
        TierCase(stored: "sftp://files.example:2222/home", request: "files.example:2222", expected: .sameHost),
        TierCase(stored: "sftp://files.example:2222/home", request: "sftp://files.example/home", expected: nil),
        TierCase(
            stored: "sftp://files.example:2222/home", request: "sftp://files.example:2222/home/kim",
            expected: .pathPrefix),
        TierCase(stored: "smb://nas.example/share", request: "smb://nas.example/share", expected: .exactURL),
        TierCase(stored: "smb://nas.example", request: "www.nas.example", expected: .parentDomain),
        TierCase(stored: "rdp://desk.example", request: "rdp://desk.example:3389", expected: .exactURL),
        TierCase(stored: "vnc://desk.example", request: "desk.example:5900", expected: .sameHost),
        TierCase(stored: "custom+x://tool.example", request: "custom+x://tool.example", expected: .exactURL),
        TierCase(stored: "custom+x://tool.example", request: "https://tool.example", expected: nil),
        TierCase(stored: "custom+x://tool.example", request: "tool.example", expected: .sameHost),
        // one port rule: a bare host asks for the host on any port
        TierCase(stored: "https://nas.local:5001", request: "nas.local", expected: .sameHost),
        TierCase(stored: "nas2.local:5000", request: "nas2.local", expected: .sameHost),
        TierCase(stored: "nas2.local:5000", request: "http://nas2.local:5000", expected: .sameHost),
        TierCase(stored: "https://nas.local:5001", request: "https://nas.local", expected: nil),
        TierCase(stored: "https://nas.local:5001", request: "nas.local:5000", expected: nil),
        TierCase(stored: "https://example.com", request: "example.com:443", expected: .sameHost),
        // the web's two default ports, which `Port` knows without the defaults' table
        TierCase(stored: "http://example.com", request: "example.com:80", expected: .sameHost),
        TierCase(stored: "http://example.com", request: "example.com:443", expected: nil),
        TierCase(stored: "https://example.com", request: "example.com:80", expected: nil),
    ])
    func otherSchemesAndPorts(_ c: TierCase) throws {
        #expect(try tier(c.stored, c.request) == c.expected)
        let filter = HostFilter(requests: [try ServiceIdentifier(c.request)], context: context())
        if c.expected != nil { #expect(filter.mayMatch(host: try ServiceIdentifier(c.stored).host)) }
    }

    @Test("a miss only by port is told apart from a miss (what a no-match message names)")
    func missesOnlyByPort() throws {
        func misses(_ stored: String, _ request: String) throws -> Bool {
            ServiceMatch.missesOnlyByPort(
                stored: try ServiceIdentifier(stored), request: try ServiceIdentifier(request))
        }
        #expect(try misses("https://nas.local:5001", "https://nas.local"))
        #expect(try misses("ssh://build.example:2222", "ssh://build.example"))
        #expect(try !misses("https://nas.local:5001", "nas.local"), "it matches")
        #expect(try !misses("https://other.local:5001", "https://nas.local"), "another host")
        #expect(try !misses("https://nas.local", "http://nas.local:8080"), "https is never offered to http")
    }

    @Test func servicesOfOtherSchemesAreKeptAsWritten() throws {
        let sftp = try ServiceIdentifier("SFTP://Files.Example:2222/home")
        #expect(sftp.text == "SFTP://Files.Example:2222/home")
        #expect(sftp.scheme?.rawValue == "sftp" && sftp.host == "files.example" && sftp.port == 2222)
        #expect(sftp.path == "/home" && sftp.form == .url)
        let ssh = try ServiceIdentifier("ssh://build.example:22")
        #expect(ssh.port == nil && ssh.effectivePort == 22, "a scheme's default port is no port of its own")
        #expect(try ServiceIdentifier("ldap://dir.example").effectivePort == 389)
        #expect(try ServiceIdentifier("custom+x://tool.example").effectivePort == nil)
    }

    @Test func theHostFilterRulesOutOtherSitesAndKeepsEquivalents() throws {
        let filter = HostFilter(
            requests: [try ServiceIdentifier("https://www.amazon.co.uk/")],
            context: context(equivalents: [["amazon.com", "amazon.co.uk"]]))
        for host in [
            "www.amazon.co.uk", "amazon.co.uk", "co.uk", "login.amazon.co.uk", "amazon.com", "smile.amazon.com",
        ] {
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

    @Test func usageHistoryRoundTripsThroughText() {
        var usage = UsageHistory()
        let id = UUID()
        usage.recordUse(of: id, for: "github.com", at: Timestamp(millisecondsSince1970: 5))
        usage.recordUse(of: id, for: "github.com", at: Timestamp(millisecondsSince1970: 9))
        let again = UsageHistory(text: usage.text + "garbage line\n")
        #expect(again.useCount(id) == 2)
        #expect(again.lastUsed(id, for: "github.com") == Timestamp(millisecondsSince1970: 9))
    }

    @Test func usageHistoryLinesWithNumbersOutOfRangeAreSkippedAndNothingOverflows() {
        let id = UUID()
        let other = UUID()
        let max = Int64.max
        let text = """
            \(id.uuidString)\tgithub.com\t\(Int.max)\t5
            \(id.uuidString)\tgitlab.com\t3\t\(max)
            \(id.uuidString)\texample.org\t-2\t5
            \(id.uuidString)\ta.com\t2\t7
            \(other.uuidString)\tgithub.com\t1\t\(1 << 50)

            """
        var usage = UsageHistory(text: text)
        #expect(usage.useCount(id) == 2, "only the a.com line is in range")
        #expect(usage.lastUsed(id, for: "gitlab.com") == nil)
        usage.recordUse(of: id, for: "github.com", at: Timestamp(millisecondsSince1970: 1))
        #expect(usage.lastUsed(id, for: "github.com") == Timestamp(millisecondsSince1970: (1 << 50) + 1))
        #expect(usage.useCount(id) == 3)
    }

    /// The text as the first version wrote it (interpolated `uuidString`, every line sorted):
    /// the hand-written bytes must be the same file, for generated histories.
    @Test func usageHistoryTextIsTheSameFileAsBefore() {
        var generator = SystemRandomNumberGenerator()
        let hosts = ["github.com", "gitlab.com", "a.com", "a.com.evil", "xn--bcher-kva.example", "example.org"]
        for _ in 0 ..< 50 {
            var usage = UsageHistory()
            var lines: [String: (count: Int, last: Int64)] = [:]
            let ids = (0 ..< Int.random(in: 0 ... 6, using: &generator)).map { _ in UUID() }
            // Uses are recorded as they happen: the clock moves on between them (a use recorded at
            // or before another's for the same host is moved past it, `recordUse`).
            var time = Int64.random(in: 0 ... 1_000_000_000_000, using: &generator)
            for _ in 0 ..< Int.random(in: 0 ... 30, using: &generator) where !ids.isEmpty {
                let id = ids.randomElement(using: &generator)!
                let host = hosts.randomElement(using: &generator)!
                time += Int64.random(in: 1 ... 1_000_000_000, using: &generator)
                usage.recordUse(of: id, for: host, at: Timestamp(millisecondsSince1970: time))
                let key = "\(id.uuidString.lowercased())\t\(host)"
                lines[key] = ((lines[key]?.count ?? 0) + 1, time)
            }
            let expected =
                lines.map { "\($0.key)\t\($0.value.count)\t\($0.value.last)" }.sorted().joined(separator: "\n")
                + (lines.isEmpty ? "" : "\n")
            #expect(usage.text == expected)
        }
    }
}
