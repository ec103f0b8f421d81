import Foundation
import PwtuiTestSupport
import ServiceMatching
import Testing
import VaultCrypto
@testable import VaultModel

@Suite struct VaultRoundTripTests {
    let temporary = TemporaryDirectory()
    let environment = VaultEnvironment(derivation: MemoizingDerivation())

    static let alphabet: [String] = [
        "a", "Z", "0", " ", "é", "日", "本", "🔑", "\u{0301}", "\"", "\\", "\n", "\t", "ß", "Ω",
    ]

    /// Notes take any of the alphabet; titles and usernames are one line of printable text
    /// (`lineOnly`), as the vault requires.
    func randomText(_ rng: inout SeededGenerator, maxLength: Int, lineOnly: Bool = false) -> String {
        let alphabet = lineOnly ? Self.alphabet.filter { $0 != "\n" && $0 != "\t" } : Self.alphabet
        let length = Int.random(in: 0 ... maxLength, using: &rng)
        return (0 ..< length).map { _ in alphabet.randomElement(using: &rng)! }.joined()
    }

    struct Expected {
        let title: String
        let username: String
        let notes: String
        let secret: [UInt8]
        let services: [String]
        let rank: Int32
    }

    @Test(arguments: [(seed: UInt64(1), count: 0), (seed: 2, count: 1), (seed: 3, count: 40), (seed: 4, count: 3000)])
    func randomVaultsSurviveSaveAndOpen(seed: UInt64, count: Int) throws {
        var rng = SeededGenerator(seed: seed)
        let vault = try createVault(in: temporary, environment: environment)
        let path = vault.path
        var expected: [UUID: Expected] = [:]
        for index in 0 ..< count {
            let secret = (0 ..< Int.random(in: 0 ... 64, using: &rng)).map { _ in
                UInt8.random(in: 0 ... 255, using: &rng)
            }
            let services = (0 ... Int.random(in: 0 ... 2, using: &rng)).map { "s\(index)-\($0).example.com" }
            let entry = Expected(
                title: randomText(&rng, maxLength: 40, lineOnly: true),
                username: randomText(&rng, maxLength: 20, lineOnly: true),
                notes: randomText(&rng, maxLength: 100), secret: secret, services: services,
                rank: Int32.random(in: -5 ... 5, using: &rng))
            let credential = try vault.add(
                services: try services.map { try ServiceIdentifier($0) }, username: entry.username,
                secret: try secure(secret), title: entry.title, notes: entry.notes, rank: entry.rank)
            expected[credential.id] = entry
        }
        try vault.save()

        let reopened = try Vault.open(at: path, password: try secure(testPassword), environment: environment)
        #expect(reopened.contents.credentials.count == count)
        for credential in reopened.contents.credentials {
            let entry = try #require(expected[credential.id])
            #expect(credential.title == entry.title)
            #expect(credential.username == entry.username)
            #expect(credential.notes == entry.notes)
            #expect(credential.rank == entry.rank)
            #expect(credential.services.map(\.text) == entry.services)
            #expect(reopened.withSecret(credential.secret) { Array($0) } == entry.secret)
        }
    }

    @Test func hugeAndEmptyFieldsRoundTrip() throws {
        let vault = try createVault(in: temporary, environment: environment)
        let path = vault.path
        // At the limits (Limits.swift): the largest notes and secret pwtui keeps.
        let hugeNotes = String(repeating: "notes-日本-", count: Limits.notesBytes / "notes-日本-".utf8.count)
        let hugeSecret = [UInt8](repeating: 0xAB, count: Limits.secretBytes)
        let big = try vault.add(
            services: [ServiceIdentifier("big.example")], username: "", secret: try secure(hugeSecret), notes: hugeNotes
        )
        let empty = try vault.add(
            services: [ServiceIdentifier("empty.example")], username: "", secret: try SecureBytes(capacity: 0))
        try vault.save()

        let reopened = try Vault.open(at: path, password: try secure(testPassword), environment: environment)
        let bigAgain = try #require(reopened.contents.credential(withID: big.id))
        #expect(bigAgain.notes == hugeNotes)
        #expect(bigAgain.username == "")
        #expect(reopened.withSecret(bigAgain.secret) { Array($0) } == hugeSecret)
        let emptyAgain = try #require(reopened.contents.credential(withID: empty.id))
        #expect(emptyAgain.secret.count == 0)
        #expect(emptyAgain.title == "")
        #expect(emptyAgain.displayTitle == "empty.example")
    }

    @Test func historyTombstonesAndTimesPersist() throws {
        let environment = VaultEnvironment(clock: steppingClock(), derivation: MemoizingDerivation())
        let vault = try createVault(in: temporary, environment: environment)
        let path = vault.path
        let kept = try vault.add(
            services: [ServiceIdentifier("github.com")], username: "alice", secret: try secure("one"))
        try vault.replaceSecret(of: kept.id, with: try secure("two"))
        try vault.replaceSecret(of: kept.id, with: try secure("three"))
        let deleted = try vault.add(
            services: [ServiceIdentifier("old.example")], username: "bob", secret: try secure("x"))
        try vault.remove(deleted.id)
        try vault.save()

        let reopened = try Vault.open(at: path, password: try secure(testPassword), environment: environment)
        let again = try #require(reopened.contents.credential(withID: kept.id))
        #expect(secretText(reopened, again.secret) == "three")
        #expect(again.history.map { secretText(reopened, $0.secret) } == ["one", "two"])
        #expect(again.history[0].replaced < again.history[1].replaced)
        #expect(again.created == kept.created)
        #expect(again.modified > kept.modified)
        #expect(reopened.contents.credential(withID: deleted.id) == nil)
        #expect(reopened.contents.tombstones.map(\.id) == [deleted.id])
        #expect(reopened.header.generation == 1)
    }

    /// The first save writes a snapshot (generation 1); the next ones append journal records,
    /// counted after it; a compaction is the next generation.
    @Test func versionCountsSaves() throws {
        let vault = try createVault(in: temporary, environment: environment)
        let path = vault.path
        for round in 1 ... 3 {
            try vault.add(services: [ServiceIdentifier("n\(round).example")], username: "u", secret: try secure("s"))
            try vault.save()
            #expect(vault.version == VaultVersion(generation: 1, changes: UInt64(round - 1)))
        }
        let reopened = try Vault.open(at: path, password: try secure(testPassword), environment: environment)
        #expect(reopened.version == VaultVersion(generation: 1, changes: 2))
        try reopened.compact()
        #expect(reopened.version == VaultVersion(generation: 2))
        #expect(reopened.header.vaultID == vault.header.vaultID)
    }

    @Test func paddingHidesTheExactSize() {
        #expect(PayloadCodec.paddedSize(contentLength: 0) == 4096)
        #expect(PayloadCodec.paddedSize(contentLength: 4000) == 4096)
        #expect(PayloadCodec.paddedSize(contentLength: 4093) == 8192)
        var previous = 0
        for length in stride(from: 0, to: 10_000_000, by: 9973) {
            let padded = PayloadCodec.paddedSize(contentLength: length)
            #expect(padded >= length + 4)
            #expect(padded >= previous)
            #expect(Double(padded) <= Double(length + 4) * 1.07 + 4096)
            previous = padded
        }
    }

    @Test func writingRefusesWeakKeyDerivation() throws {
        #expect(throws: VaultError.self) {
            _ = try Vault.create(
                at: "/nonexistent/v", password: try secure("pw"),
                parameters: KDFParameters(opsLimit: 2, memLimitKiB: 64 * 1024), environment: environment)
        }
    }
}
