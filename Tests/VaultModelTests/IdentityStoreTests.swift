import Foundation
import PwtuiTestSupport
import ServiceMatching
import Testing
@testable import VaultModel

@Suite struct IdentityStoreTests {
    let temporary = TemporaryDirectory()
    let environment = VaultEnvironment(clock: steppingClock(), derivation: MemoizingDerivation())

    func vaultWithThree() throws -> Vault {
        let vault = try createVault(in: temporary, environment: environment)
        for name in ["a", "b", "c"] {
            try vault.add(
                services: [ServiceIdentifier("\(name).example")], username: name, secret: try secure("secret-\(name)"),
                title: "T\(name)", notes: "notes-\(name)")
        }
        try vault.save()
        return vault
    }

    @Test func holdsIdentitiesOnlyAndRoundTrips() throws {
        let vault = try vaultWithThree()
        let store = IdentityStore(vault: vault)
        let path = try temporary.freshPath("state/identities")
        try store.save(to: path)
        let text = String(decoding: try readFile(path), as: UTF8.self)
        #expect(!text.contains("secret-") && !text.contains("notes-"))
        #expect(IdentityStore.load(from: path) == store)
        #expect(store.isCurrent(for: vault.header, at: vault.version))
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        try "garbage\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(IdentityStore.load(from: path) == nil, "a damaged store is missing, to be rebuilt")
    }

    @Test func aFilteredLoadBuildsOnlyPossibleMatchesAndCannotBeSaved() throws {
        let vault = try vaultWithThree()
        vault.updateEquivalents { domains, time in domains.add(["a.example", "a-other.example"], at: time) }
        try vault.save()
        let path = try temporary.freshPath("identities")
        try IdentityStore(vault: vault).save(to: path)
        let request = try ServiceIdentifier("https://www.a-other.example/")
        let filtered = try #require(
            IdentityStore.load(from: path) { equivalents in
                #expect(
                    equivalents.groups == [["a-other.example", "a.example"]], "the equivalents travel with the store")
                return HostFilter(
                    requests: [request],
                    context: RankingContext(suffixes: NoPublicSuffixList(), equivalents: equivalents))
            })
        #expect(filtered.identities.map(\.username) == ["a"], "only the credential an equivalent domain could match")
        #expect(!filtered.isComplete)
        #expect(throws: VaultError.self) { try filtered.save(to: path) }
        #expect(IdentityStore.load(from: path)?.identities.count == 3, "the file was left whole")
    }

    @Test func everyFlippedByteMakesTheStoreDamagedNeverDifferent() throws {
        let store = IdentityStore(vault: try vaultWithThree())
        let path = try temporary.freshPath("identities")
        try store.save(to: path)
        let good = try readFile(path)
        for offset in good.indices {
            var bytes = good
            bytes[offset] ^= 0x01
            try writeFile(path, bytes)
            #expect(throws: IdentityStore.Damage.self, "byte \(offset)") { try IdentityStore.read(from: path) }
        }
        try writeFile(path, good)
        #expect(try IdentityStore.read(from: path) == store)
        try writeFile(path + ".key", [UInt8](repeating: 7, count: 32))
        #expect(throws: IdentityStore.Damage.self, "another key") { try IdentityStore.read(from: path) }
        try store.save(to: path)
        #expect(try IdentityStore.read(from: path) == store, "written under the key that is there now")
        #expect(try IdentityStore.read(from: path + "-none") == nil, "missing is not damaged")
    }

    @Test func writingRemovesWhatAKilledWriterLeft() throws {
        let store = IdentityStore(vault: try vaultWithThree())
        let directory = try temporary.freshPath("state")
        try store.save(to: directory + "/identities")
        try writeFile(directory + "/.identities.tmp-deadbeef0000", [1, 2, 3])
        try writeFile(directory + "/.usage.tmp-deadbeef0000", [1, 2, 3])
        try store.save(to: directory + "/identities")
        let names = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        #expect(
            names == [".usage.tmp-deadbeef0000", "identities", "identities.key"], "only the store's own temporaries go")
    }
}
