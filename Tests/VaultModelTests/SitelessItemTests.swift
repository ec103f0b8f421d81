import Foundation
import Platform
import PwtuiTestSupport
import ServiceMatching
import Testing
import VaultCrypto
@testable import VaultModel

/// Items without a site (format 1.3): a title is enough; they are kept through the file and
/// the identity store, never offered for a service, and an edit may not leave a credential
/// with neither a service nor a title.
@Suite("Items without a site")
struct SitelessItemTests {
    let temporary = TemporaryDirectory()

    @Test("a title is enough: kept through the file (format 1.3) and the identity store, never a match for a service")
    func kept() throws {
        let environment = VaultEnvironment(derivation: MemoizingDerivation())
        let vault = try createVault(in: temporary, environment: environment)
        let wifi = try vault.add(services: [], username: "", secret: try secure("wifi-pass"), title: "Home Wi-Fi")
        try vault.add(services: [try ServiceIdentifier("wifi.example")], username: "kim", secret: try secure("site"))
        try vault.save()
        #expect(vault.header.minorVersion >= 3)
        let reopened = try Vault.open(at: vault.path, password: try secure(testPassword), environment: environment)
        let stored = try #require(reopened.contents.credential(withID: wifi.id))
        #expect(stored.title == "Home Wi-Fi" && stored.services.isEmpty)
        #expect(reopened.withSecret(stored.secret) { Array($0) } == Array("wifi-pass".utf8))
        let identity = try #require(IdentityStore(vault: reopened).identities.first { $0.id == wifi.id })
        #expect(identity.services.isEmpty && identity.displayTitle == "Home Wi-Fi")
        let context = RankingContext(suffixes: NoPublicSuffixList())
        let matches = CredentialRanking.matches(
            reopened.contents.credentials, for: [try ServiceIdentifier("home")], context: context)
        #expect(!matches.contains { $0.credential.id == wifi.id })
        let all = CredentialRanking.rank(
            reopened.contents.credentials, for: [try ServiceIdentifier("wifi.example")], context: context)
        #expect(all.contains { $0.credential.id == wifi.id && $0.match == nil })
    }

    @Test("neither a service nor a title is refused, on add and on an edit removing the last service")
    func unnamedRefused() throws {
        let vault = try createVault(in: temporary, environment: VaultEnvironment(derivation: MemoizingDerivation()))
        #expect(throws: VaultError.self) { try vault.add(services: [], username: "kim", secret: try secure("p")) }
        let site = try vault.add(
            services: [try ServiceIdentifier("a.example")], username: "kim", secret: try secure("p"))
        #expect(throws: VaultError.self) { try vault.update(site.id) { $0.services = [] } }
        try vault.update(site.id) {
            $0.services = []; $0.title = "Now an item"
        }
        #expect(try vault.credential(id: site.id.uuidString).services.isEmpty)
    }

    @Test("app links are kept through the file as they were written, beside web services, and match only their app")
    func appLinks() throws {
        let environment = VaultEnvironment(derivation: MemoizingDerivation())
        let vault = try createVault(in: temporary, environment: environment)
        let services = [
            try ServiceIdentifier("https://example.com/login"),
            try ServiceIdentifier("android://aGFzaA==@com.example.app/"),
            try ServiceIdentifier("iosapp://com.example.ios"),
        ]
        let item = try vault.add(services: services, username: "kim", secret: try secure("pw"))
        try vault.save()
        let reopened = try Vault.open(at: vault.path, password: try secure(testPassword), environment: environment)
        let stored = try #require(reopened.contents.credential(withID: item.id))
        #expect(stored.services.map(\.text) == services.map(\.text))
        let context = RankingContext(suffixes: NoPublicSuffixList())
        let app = CredentialRanking.matches(
            reopened.contents.credentials, for: [try ServiceIdentifier("androidapp://com.example.app")],
            context: context)
        #expect(app.map(\.credential.id) == [item.id])
        #expect(
            CredentialRanking.matches(
                reopened.contents.credentials, for: [try ServiceIdentifier("com.example.app")], context: context
            ).isEmpty)
    }
}
