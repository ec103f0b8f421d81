// Every rule of the Public Suffix List that Debian installs, turned into hosts and sent through the
// service parser, libpsl and the matcher, with the expected answers computed independently
// (ReferencePublicSuffixRules). This is the class behind "an ordinary host crashes pwtui": a
// dangling pointer from libpsl showed up only for some host lengths, so hand-picked hosts
// missed it; thousands of real ones, of many lengths and shapes, do not.

import Foundation
import Testing
@testable import ServiceMatching

@Suite("Public Suffix List corpus")
struct PublicSuffixCorpusTests {
    struct Host {
        let unicode: String
        let rule: ReferencePublicSuffixRules.Rule
    }

    /// For each rule: the rule itself (`*` made a label), one and two labels under it, a 63-byte
    /// label under it, an IDN label under it; for exception rules the excepted name and one under.
    static func hosts(_ rules: ReferencePublicSuffixRules) -> [Host] {
        var hosts: [Host] = []
        for rule in rules.rules {
            let base = rule.labels.reversed().map { $0 == "*" ? "wild" : String($0) }.joined(separator: ".")
            var names = [
                base, "a." + base, "b.a." + base, "bücher.a." + base, String(repeating: "l", count: 63) + "." + base,
            ]
            // A long name near DNS's 253-byte limit, made of several long labels.
            var long = base
            while long.utf8.count + 60 <= 253 { long = String(repeating: "m", count: 59) + "." + long }
            names.append(long)
            hosts += names.map { Host(unicode: $0, rule: rule) }
        }
        return hosts
    }

    static func ascii(_ unicode: String) -> String? { try? Punycode.toASCII(unicode).get() }

    @Test("libpsl and the reference agree on the registrable domain of every generated host")
    func registrableDomains() throws {
        let reference = try ReferencePublicSuffixRules()
        let psl = try #require(LibPSL(file: ReferencePublicSuffixRules.systemFile), "the publicsuffix package's list")
        let hosts = Self.hosts(reference)
        #expect(hosts.count > 50_000, "the list has thousands of rules")
        var mismatches: [String] = []
        var rejected: [String] = []
        for host in hosts {
            let service: ServiceIdentifier
            do { service = try ServiceIdentifier(host.unicode) } catch {
                rejected.append("\(host.unicode): \(error)")
                continue
            }
            let expected = reference.registrableDomain(of: host.unicode).flatMap(Self.ascii)
            let actual = psl.registrableDomain(of: service.host)
            if actual != expected {
                mismatches.append(
                    "\(host.unicode) (rule \(host.rule.text)): libpsl \(actual ?? "nil"), reference \(expected ?? "nil")"
                )
            }
        }
        #expect(rejected.isEmpty, "\(rejected.count) hosts rejected, first: \(rejected.prefix(10))")
        #expect(mismatches.isEmpty, "\(mismatches.count) mismatches, first: \(mismatches.prefix(20))")
    }

    @Test(
        "through the matcher: a registrable domain's credential matches its hosts, a public suffix's never matches another's"
    )
    func matcherOverTheCorpus() throws {
        let reference = try ReferencePublicSuffixRules()
        let psl = try #require(LibPSL(file: ReferencePublicSuffixRules.systemFile))
        let context = RankingContext(suffixes: psl)
        var failures: [String] = []
        var checked = 0
        for host in Self.hosts(reference) {
            guard let request = try? ServiceIdentifier(host.unicode),
                let suffix = Self.ascii(reference.publicSuffix(of: host.unicode))
            else { continue }
            func tier(_ stored: String) -> MatchKind? {
                guard let stored = try? ServiceIdentifier(stored) else { return nil }
                return ServiceMatch.tier(stored: stored, request: request, context: context)
            }
            if let registrable = reference.registrableDomain(of: host.unicode).flatMap(Self.ascii) {
                // The site's own credential is offered (host itself, or as its parent domain).
                let expected: MatchKind = registrable == request.host ? .sameHost : .parentDomain
                if tier(registrable) != expected {
                    failures.append(
                        "\(registrable) for \(request.host): \(String(describing: tier(registrable))), expected \(expected)"
                    )
                }
                // Another host of the same site is the same site.
                let sibling = "zz-sibling." + registrable
                if tier(sibling) != .sameSite {
                    failures.append(
                        "\(sibling) for \(request.host): \(String(describing: tier(sibling))), expected same-site")
                }
                // Another site under the same public suffix is never offered.
                let stranger = "zz-stranger." + suffix
                if stranger != registrable, let kind = tier(stranger) {
                    failures.append("\(stranger) offered to \(request.host) as \(kind)")
                }
            }
            // A credential stored for the public suffix itself never reaches the names under it.
            if suffix != request.host {
                if let kind = tier(suffix) {
                    failures.append("public suffix \(suffix) offered to \(request.host) as \(kind)")
                }
                if suffix.contains("."), let kind = tier("*." + suffix) {
                    failures.append("*.\(suffix) offered to \(request.host) as \(kind)")
                }
            }
            checked += 1
        }
        #expect(checked > 50_000)
        #expect(failures.isEmpty, "\(failures.count) failures, first: \(failures.prefix(20))")
    }

    @Test(
        "hosts that crashed pwtui (a dangling libpsl pointer) and the sites the issue names",
        arguments: [
            "login.microsoftonline.com", "www.wellsfargoadvisors.com", "www.auth.exampleapp.com.au",
            "sellercentral.amazon.com", "xn--bcher-kva.xn--bcher-kva.xn--bcher-kva.example.co.uk",
        ])
    func reportedHosts(_ host: String) throws {
        let psl = try #require(LibPSL(file: ReferencePublicSuffixRules.systemFile))
        let reference = try ReferencePublicSuffixRules()
        #expect(psl.registrableDomain(of: host) == reference.registrableDomain(of: host))
        let amazon = try ServiceIdentifier("www.amazon.com")
        if host == "sellercentral.amazon.com" {
            #expect(
                ServiceMatch.tier(
                    stored: amazon, request: try ServiceIdentifier(host),
                    context: RankingContext(suffixes: psl)) == .sameSite)
        }
    }
}
