import Foundation
import PwtuiTestSupport
import ServiceMatching
import Testing
import VaultCrypto
@testable import VaultModel

/// The identity store followed through its journal (`IdentityStore.Change`): what a reader gets
/// is what a rebuild from the vault gives, and anything out of step makes the writer rebuild.
@Suite struct IdentityStoreJournalTests {
    let temporary = TemporaryDirectory()
    let environment = VaultEnvironment(clock: steppingClock(), derivation: MemoizingDerivation())

    /// A vault saved once, and its store written whole.
    func vaultAndStore() throws -> (Vault, String) {
        let vault = try createVault(in: temporary, environment: environment)
        try vault.add(services: [ServiceIdentifier("a.example")], username: "a", secret: try secure("pa"))
        try vault.save()
        let path = try temporary.freshPath("state/identities/store")
        try IdentityStore(vault: vault).save(to: path)
        return (vault, path)
    }

    /// The store a rebuild writes for `vault`, as read back (what a file holds: the equivalents
    /// without their time, for one).
    func rebuilt(_ vault: Vault) throws -> IdentityStore? {
        let path = try temporary.freshPath("rebuilt/store")
        try IdentityStore(vault: vault).save(to: path)
        return IdentityStore.load(from: path)
    }

    /// Saves `vault` and follows the save in the store as a command does: appended when the save
    /// was, otherwise written whole. Returns whether it appended.
    @discardableResult
    func saveAndFollow(_ vault: Vault, store path: String, compact: Bool = false) throws -> Bool {
        if compact { try vault.compact() } else { try vault.save() }
        if let appended = vault.lastAppended,
            try IdentityStore.append(
                IdentityStore.Change(appended, in: vault), after: appended.after, vaultID: vault.header.vaultID,
                to: path)
        {
            return true
        }
        try IdentityStore(vault: vault).save(to: path)
        return false
    }

    @Test(arguments: 0 ..< 6)
    func randomChangesFollowedThroughTheJournalReadAsARebuild(seed: UInt64) throws {
        var random = SplitMix(seed: seed)
        let (vault, path) = try vaultAndStore()
        var appends = 0
        for step in 0 ..< 50 {
            let ids = vault.contents.credentials.map(\.id)
            let target = ids.isEmpty ? nil : ids[Int(random.next() % UInt64(ids.count))]
            switch (target, random.next() % 7) {
            case (let id?, 0): try vault.remove(id)
            case (let id?, 1): try vault.update(id) { $0.title = "title \(step)" }
            case (let id?, 2):
                try vault.update(id) { $0.services.append(try ServiceIdentifier("more\(step).example")) }
            case (let id?, 3):
                try vault.update(id) { $0.kind = .sshKey }
                try vault.setField(
                    of: id, name: SSHKeyItem.publicKeyField, text: "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI\(step) k",
                    secret: try secure(""))
            case (_, 4):
                vault.updateEquivalents { domains, time in
                    domains.add(["e\(step).example", "f\(step).example"], at: time)
                }
            default:
                try vault.add(
                    services: [ServiceIdentifier("s\(step).example")], username: "u\(step)", secret: try secure("p"))
            }
            if try saveAndFollow(vault, store: path, compact: random.next() % 10 == 0) { appends += 1 }
            let read = try #require(IdentityStore.load(from: path), "seed \(seed), step \(step)")
            #expect(read == (try rebuilt(vault)), "seed \(seed), step \(step)")
            #expect(read.isCurrent(for: vault.header, at: vault.version))
        }
        #expect(appends > 30, "most saves were followed by an append: \(appends)")
    }

    @Test func aStoreOutOfStepIsWrittenWholeAndAStaleJournalIsIgnored() throws {
        let (vault, path) = try vaultAndStore()
        try vault.add(services: [ServiceIdentifier("b.example")], username: "b", secret: try secure("pb"))
        #expect(try saveAndFollow(vault, store: path))
        let journal = try readFile(IdentityStore.journalPath(of: path))

        // A save the store missed (its writer was killed): the next one cannot append.
        try vault.add(services: [ServiceIdentifier("c.example")], username: "c", secret: try secure("pc"))
        try vault.save()
        let missed = try #require(IdentityStore.load(from: path))
        #expect(!missed.isCurrent(for: vault.header, at: vault.version), "older than the vault: suggest says so")
        try vault.add(services: [ServiceIdentifier("d.example")], username: "d", secret: try secure("pd"))
        #expect(try !saveAndFollow(vault, store: path), "written whole")
        #expect(!FileManager.default.fileExists(atPath: IdentityStore.journalPath(of: path)), "its journal removed")
        #expect(IdentityStore.load(from: path) == (try rebuilt(vault)))

        // The old journal put back beside the rewritten store: its chain starts elsewhere.
        try writeFile(IdentityStore.journalPath(of: path), journal)
        #expect(IdentityStore.load(from: path) == (try rebuilt(vault)))
        // A record damaged: the store stops before it, older than the vault.
        try vault.add(services: [ServiceIdentifier("e.example")], username: "e", secret: try secure("pe"))
        #expect(try saveAndFollow(vault, store: path), "appended after cutting off what did not verify")
        var damaged = try readFile(IdentityStore.journalPath(of: path))
        damaged[damaged.count - 40] ^= 1
        try writeFile(IdentityStore.journalPath(of: path), damaged)
        let stopped = try #require(IdentityStore.load(from: path))
        #expect(!stopped.isCurrent(for: vault.header, at: vault.version))
        #expect(!stopped.identities.contains { $0.username == "e" })
    }

    @Test func theJournalStaysWithinItsBound() throws {
        let (vault, path) = try vaultAndStore()
        var rewrites = 0
        for step in 0 ..< 300 {
            try vault.add(
                services: [ServiceIdentifier("s\(step).example")], username: String(repeating: "u", count: 1500),
                secret: try secure("p"))
            if try !saveAndFollow(vault, store: path) { rewrites += 1 }
            let size = (try? readFile(IdentityStore.journalPath(of: path)).count) ?? 0
            #expect(size <= IdentityStore.journalBound)
        }
        #expect(rewrites >= 1, "the bound made it write the store whole")
        #expect(IdentityStore.load(from: path) == (try rebuilt(vault)))
    }
}
