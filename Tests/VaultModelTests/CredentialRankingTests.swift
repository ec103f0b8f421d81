import Foundation
import Testing
@testable import VaultModel

@Suite struct ServiceIdentifierTests {
    @Test(arguments: [
        ("github.com", "github.com", false),
        ("GitHub.COM.", "github.com", false),
        ("HTTPS://User@GitHub.COM:443/Path", "github.com", false),
        ("WebCredentials:*.Example.COM", "example.com", true),
        ("https://github.com:8443/login?x=1#y", "github.com", false),
        ("webcredentials:*.example.com:8443", "example.com", true),
        ("*.example.com", "example.com", true),
        ("https://user@host.example/", "host.example", false),
        ("[::1]:8080", "[::1]", false),
        ("localhost", "localhost", false),
    ])
    func hostsAreExtracted(text: String, host: String, wildcard: Bool) throws {
        let service = try ServiceIdentifier(text)
        #expect(service.host == host)
        #expect(service.isWildcard == wildcard)
        #expect(service.text == text)
    }

    @Test(arguments: ["", "git hub.com", "a.com\n", "https://", "*.", "foo.*.com"])
    func invalidServicesAreRefused(text: String) {
        #expect(throws: VaultError.self) { _ = try ServiceIdentifier(text) }
    }
}

@Suite struct CredentialRankingTests {
    func credential(_ title: String, _ services: [String], rank: Int32 = 0) throws -> Credential {
        Credential(id: UUID(), title: title, services: try services.map { try ServiceIdentifier($0) },
                   username: title, secret: SecretReference(offset: 0, count: 0), rank: rank,
                   created: Timestamp(millisecondsSince1970: 0), modified: Timestamp(millisecondsSince1970: 0))
    }

    func ranked(_ credentials: [Credential], _ requests: [String]) throws -> [String] {
        CredentialRanking.rank(credentials, for: try requests.map { try ServiceIdentifier($0) }).map(\.credential.title)
    }

    @Test func labelBoundariesAreRespected() throws {
        let all = [try credential("box", ["box.com"]), try credential("dropbox", ["dropbox.com"])]
        #expect(try ranked(all, ["dropbox.com"]) == ["dropbox"])
        #expect(try ranked(all, ["box.com"]) == ["box"])
        #expect(try ranked(all, ["www.box.com"]) == ["box"])
    }

    @Test func sameHostBeatsParentDomainAndCloserParentsWin() throws {
        let all = [try credential("root", ["github.com"]), try credential("api", ["api.github.com"]),
                   try credential("exact", ["x.api.github.com"]), try credential("other", ["gitlab.com"])]
        let result = CredentialRanking.rank(all, for: [try ServiceIdentifier("x.api.github.com")])
        #expect(result.map(\.credential.title) == ["exact", "api", "root"])
        #expect(result.map(\.match) == [.sameHost, .parentDomain, .parentDomain])
    }

    @Test func wildcardsMatchStrictSubdomainsOnly() throws {
        let all = [try credential("wild", ["*.example.com"])]
        #expect(try ranked(all, ["example.com"]) == [])
        #expect(try ranked(all, ["a.example.com"]) == ["wild"])
    }

    @Test func earlierRequestsWeighMoreThenRankThenTitle() throws {
        let all = [try credential("b-low", ["b.example"]), try credential("a", ["a.example"]),
                   try credential("b-high", ["b.example"], rank: 5), try credential("b-also", ["b.example"])]
        #expect(try ranked(all, ["b.example", "a.example"]) == ["b-high", "b-also", "b-low", "a"])
        #expect(try ranked(all, ["a.example", "b.example"]) == ["a", "b-high", "b-also", "b-low"])
    }
}
