import Testing
@testable import ServiceMatching

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
        Case(
            text: "https://github.com:8443/login?x=1#y", host: "github.com", scheme: .https, port: 8443, path: "/login"),
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
        ("1ftp://x.com", "not a URL scheme"), ("file:///etc/passwd", "no host"),
        ("github.com/login", "'/login' is a path"),
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
