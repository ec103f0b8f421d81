import Foundation
import PwtuiTestSupport
import ServiceMatching
import Testing
import VaultCrypto
@testable import VaultModel

/// The save protocol's promises that can be checked in-process: concurrent savers merge, a
/// refused save leaves the file byte-identical and no temporary behind, a password change leaves
/// nothing that opens with the old password. (Kill -9 and a full disk are tested on the real
/// binary in CommandLineTests.)
@Suite struct VaultSaveTests {
    let temporary = TemporaryDirectory()
    let environment = VaultEnvironment(clock: steppingClock(), derivation: MemoizingDerivation())

    func newVault() throws -> Vault {
        let vault = try createVault(in: temporary, environment: environment)
        try vault.save()
        return vault
    }

    func reopen(_ path: String, password: String = testPassword) throws -> Vault {
        try Vault.open(at: path, password: try secure(password), environment: environment)
    }

    /// A header and data key of their own, for sealing images by hand (the vault's key is private).
    func freshKeys() throws -> VaultKeys {
        try VaultFormat.makeKeys(
            password: try secure(testPassword), parameters: .interactive, derivation: environment.derivation,
            vaultID: Array(repeating: 7, count: 16), generation: 1)
    }

    func directoryListing(_ path: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: (path as NSString).deletingLastPathComponent).sorted()
    }

    @Test func savesFromTwoOpenCopiesMerge() throws {
        let a = try newVault()
        let b = try reopen(a.path)
        try a.add(services: [ServiceIdentifier("a.example")], username: "a", secret: try secure("pa"))
        try a.save()
        try b.add(services: [ServiceIdentifier("b.example")], username: "b", secret: try secure("pb"))
        try b.save()
        let merged = try reopen(a.path)
        #expect(Set(merged.contents.credentials.map(\.username)) == ["a", "b"])
        // a's change was a journal record; b found it and wrote a new snapshot with both.
        #expect(merged.version == VaultVersion(generation: 2))
        // b now holds the merged contents too, with a's secret copied into its arena.
        let fromA = try #require(b.contents.credentials.first { $0.username == "a" })
        #expect(secretText(b, fromA.secret) == "pa")
    }

    @Test func aHolderReloadsOthersSavesAndRevertsItsUnsavedChanges() throws {
        let holder = try newVault()
        let other = try reopen(holder.path)
        #expect(try holder.reloadIfChanged() == false, "nothing changed yet")
        try other.add(services: [ServiceIdentifier("o.example")], username: "other", secret: try secure("po"))
        try other.save()
        #expect(try holder.reloadIfChanged() == true)
        #expect(holder.contents.credentials.map(\.username) == ["other"])
        try holder.add(services: [ServiceIdentifier("u.example")], username: "unsaved", secret: try secure("pu"))
        try holder.revert()
        #expect(holder.contents.credentials.map(\.username) == ["other"], "the unsaved change is gone")
        try holder.save()
        #expect(try reopen(holder.path).contents.credentials.map(\.username) == ["other"], "and is not saved later")
    }

    @Test func theLaterSaveOfOneFieldWinsAndDeletionsAreNotResurrected() throws {
        let a = try newVault()
        let shared = try a.add(services: [ServiceIdentifier("s.example")], username: "first", secret: try secure("p1"))
        let doomed = try a.add(services: [ServiceIdentifier("d.example")], username: "doomed", secret: try secure("p2"))
        try a.save()
        let b = try reopen(a.path)
        try a.update(shared.id) { $0.username = "saved second" }
        try b.update(shared.id) { $0.username = "saved first" }
        try b.remove(doomed.id)
        try b.save()
        try a.save()
        let merged = try reopen(a.path)
        #expect(merged.contents.credentials.map(\.username) == ["saved second"], "the same field: the later save wins")
        #expect(merged.contents.tombstones.map(\.id) == [doomed.id])
    }

    @Test func editsOfDifferentFieldsFromTwoOpenCopiesAreAllKept() throws {
        let a = try newVault()
        let shared = try a.add(
            services: [ServiceIdentifier("s.example")], username: "first", secret: try secure("p1"), title: "old")
        try a.save()
        let b = try reopen(a.path)
        let c = try reopen(a.path)
        let d = try reopen(a.path)
        try a.update(shared.id) { $0.title = "new title" }
        try b.update(shared.id) { $0.username = "new user" }
        try c.update(shared.id) { $0.services.append(try ServiceIdentifier("added.example")) }
        try d.replaceSecret(of: shared.id, with: try secure("p2"))
        // Saved in the opposite order of the edits: none of them read what another saved.
        for vault in [d, c, b, a] { try vault.save() }
        let merged = try reopen(a.path)
        let credential = try #require(merged.contents.credentials.first)
        #expect(credential.title == "new title")
        #expect(credential.username == "new user")
        #expect(credential.services.map(\.text) == ["s.example", "added.example"])
        #expect(secretText(merged, credential.secret) == "p2")
        #expect(credential.history.map { secretText(merged, $0.secret) } == ["p1"])
        #expect(merged.contents.credentials.count == 1)
    }

    @Test func servicesAddedAndRemovedConcurrentlyMergeAsSets() throws {
        let a = try newVault()
        let shared = try a.add(
            services: [ServiceIdentifier("one.example"), ServiceIdentifier("two.example")],
            username: "u", secret: try secure("p1"))
        try a.save()
        let b = try reopen(a.path)
        try a.update(shared.id) { $0.services.removeAll { $0.text == "one.example" } }
        try b.update(shared.id) { entry in
            entry.services.removeAll { $0.text == "one.example" }
            entry.services.append(try ServiceIdentifier("three.example"))
        }
        try a.save()
        try b.save()
        let services = try reopen(a.path).contents.credentials.first?.services.map(\.text)
        #expect(services == ["two.example", "three.example"], "a removal already made is a no-op")

        // Removing the last service left by the other side's change cannot be merged.
        let c = try reopen(a.path)
        let e = try reopen(a.path)
        try c.update(shared.id) { $0.services.removeAll { $0.text == "two.example" } }
        try e.update(shared.id) { $0.services.removeAll { $0.text == "three.example" } }
        try c.save()
        let before = try readFile(a.path)
        #expect(throws: VaultError.self) { try e.save() }
        #expect(try readFile(a.path) == before, "the refused save wrote nothing")
    }

    /// A credential added to `vault` and saved, then removed in one fresh copy of the file and
    /// edited in another, neither of them saved yet.
    func removedAndEdited(in vault: Vault, service: String) throws -> (remover: Vault, editor: Vault) {
        let added = try vault.add(services: [ServiceIdentifier(service)], username: "u", secret: try secure("p1"))
        try vault.save()
        let remover = try reopen(vault.path)
        let editor = try reopen(vault.path)
        try remover.remove(added.id)
        try editor.update(added.id) { $0.title = "edited" }
        return (remover, editor)
    }

    @Test func anEditOfACredentialRemovedMeanwhileFailsAndARemovalAfterAnEditRemoves() throws {
        let a = try newVault()
        let (remover, editor) = try removedAndEdited(in: a, service: "s.example")
        try remover.save()
        let before = try readFile(a.path)
        do {
            try editor.save()
            Issue.record("an edit of a removed credential was reported saved")
        } catch let VaultError.conflict(_, reason) {
            #expect(reason.contains("removed"), "\(reason)")
        }
        #expect(try readFile(a.path) == before)
        #expect(try reopen(a.path).contents.credentials.isEmpty)

        let (remover2, editor2) = try removedAndEdited(in: try reopen(a.path), service: "t.example")
        try editor2.save()
        try remover2.save()
        #expect(try reopen(a.path).contents.credentials.isEmpty, "the removal saved last is not undone")
    }

    @Test func refusedSaveLeavesTheFileByteIdenticalAndNoTemporary() throws {
        let a = try newVault()
        try a.add(services: [ServiceIdentifier("a.example")], username: "a", secret: try secure("pa"))
        try a.save()
        let b = try reopen(a.path)
        try b.changePassword(to: try secure("new password"))
        let afterPasswordChange = try readFile(a.path)
        let listing = try directoryListing(a.path)

        try a.add(services: [ServiceIdentifier("x.example")], username: "x", secret: try secure("px"))
        #expect(throws: VaultError.self) { try a.save() }
        #expect(try readFile(a.path) == afterPasswordChange)
        #expect(try directoryListing(a.path) == listing)
        #expect(!listing.contains { $0.contains(".tmp-") })
    }

    /// The read-back check still runs now that it compares the file with the image a chunk at a
    /// time instead of reading a second copy (issue 23): a temporary file damaged after its write
    /// (a flipped byte, a lost tail, a stray byte more) fails the save, and the vault, its `.bak`
    /// and the directory are as they were.
    @Test func aTemporaryDamagedAfterItsWriteFailsTheSaveAndChangesNothing() throws {
        let vault = try newVault()
        try vault.add(services: [ServiceIdentifier("a.example")], username: "a", secret: try secure("pa"))
        try vault.save()
        let before = try readFile(vault.path)
        let listing = try directoryListing(vault.path)
        let damages: [(String, ([UInt8]) -> [UInt8])] = [
            (
                "a flipped byte",
                {
                    var bytes = $0; bytes[bytes.count / 2] ^= 0x40; return bytes
                }
            ),
            ("a lost tail", { Array($0.dropLast(1)) }),
            ("a byte more", { $0 + [0] }),
        ]
        let keys = try freshKeys()
        for (damage, change) in damages {
            var header = keys.header
            #expect(throws: VaultError.self, "\(damage)") {
                try VaultStorage.commit(
                    path: vault.path, backup: .keepPrevious,
                    produce: { _ in
                        try VaultFormat.sealImage(vault.contents, header: &header, dataKey: keys.dataKey)
                    }, verify: { _ in },
                    afterWriting: { temporary in
                        try writeFile(temporary, change(try readFile(temporary)))
                    })
            }
            #expect(try readFile(vault.path) == before, "\(damage)")
            #expect(try directoryListing(vault.path) == listing, "\(damage)")
        }
    }

    /// The other half of the read-back check: an image whose payload does not authenticate (or
    /// whose size is not its header's) is refused by the in-place decryption, not counted.
    @Test func anImageThatDoesNotAuthenticateIsRefusedWhenDecryptedInPlace() throws {
        let vault = try newVault()
        try vault.add(services: [ServiceIdentifier("a.example")], username: "a", secret: try secure("pa"))
        let keys = try freshKeys()
        var header = keys.header
        var image = try VaultFormat.sealImage(vault.contents, header: &header, dataKey: keys.dataKey)
        #expect(
            try VaultFormat.credentialCount(
                decryptingInPlace: &image, header: header, dataKey: keys.dataKey, path: vault.path) == 1)

        for offset in [VaultHeader.byteCount + 10, image.count - 1] {
            var damaged = try VaultFormat.sealImage(vault.contents, header: &header, dataKey: keys.dataKey)
            damaged.withUnsafeMutableBytes { $0[offset] ^= 0x01 }
            #expect(throws: VaultError.self) {
                _ = try VaultFormat.credentialCount(
                    decryptingInPlace: &damaged, header: header, dataKey: keys.dataKey, path: vault.path)
            }
        }
        var short = try SecureBytes(zeros: VaultHeader.byteCount + 3)
        #expect(throws: VaultError.self) {
            _ = try VaultFormat.credentialCount(
                decryptingInPlace: &short, header: header, dataKey: keys.dataKey, path: vault.path)
        }
    }

    @Test func staleTemporariesFromAKilledSaverAreRemoved() throws {
        let vault = try newVault()
        let directory = (vault.path as NSString).deletingLastPathComponent
        try writeFile(directory + "/.v.pwtui.tmp-deadbeef0000", [1, 2, 3])
        try vault.add(services: [ServiceIdentifier("a.example")], username: "a", secret: try secure("pa"))
        try vault.compact()
        #expect(try directoryListing(vault.path) == ["v.pwtui", "v.pwtui.bak", "v.pwtui.lock"])
    }

    @Test func backupHoldsThePreviousVersion() throws {
        let vault = try newVault()
        try vault.add(services: [ServiceIdentifier("a.example")], username: "a", secret: try secure("pa"))
        try vault.save()
        let previous = try readFile(vault.path)
        try vault.add(services: [ServiceIdentifier("b.example")], username: "b", secret: try secure("pb"))
        try vault.save()
        #expect(!FileManager.default.fileExists(atPath: vault.path + ".bak"), "a journal record leaves .bak alone")
        try vault.compact()
        // .bak is the file before the last snapshot: the snapshot it replaced and its records.
        #expect(try readFile(vault.path + ".bak").count > previous.count)
        #expect(try reopen(vault.path + ".bak").contents.credentials.count == 2)
        try vault.add(services: [ServiceIdentifier("c.example")], username: "c", secret: try secure("pc"))
        let beforeCompaction = try readFile(vault.path)
        try vault.compact()
        #expect(try readFile(vault.path + ".bak") == beforeCompaction)
        #expect(try reopen(vault.path + ".bak").contents.credentials.count == 2)
    }

    @Test func passwordChangeLeavesNothingOpenableWithTheOldPassword() throws {
        let vault = try newVault()
        let credential = try vault.add(
            services: [ServiceIdentifier("a.example")], username: "a", secret: try secure("pa"))
        try vault.save()
        let oldHeader = vault.header
        try vault.changePassword(to: try secure("new password"))
        #expect(vault.header.salt != oldHeader.salt)
        #expect(vault.header.wrappedKey != oldHeader.wrappedKey)
        #expect(vault.header.vaultID == oldHeader.vaultID)

        let directory = (vault.path as NSString).deletingLastPathComponent
        for name in try FileManager.default.contentsOfDirectory(atPath: directory) where !name.hasSuffix(".lock") {
            #expect(throws: VaultError.self, "\(name) opens with the old password") {
                _ = try reopen(directory + "/" + name)
            }
        }
        let reopened = try reopen(vault.path, password: "new password")
        #expect(secretText(reopened, try #require(reopened.contents.credential(withID: credential.id)).secret) == "pa")
        // The data key changed as well: the new file cannot be read with the old data key.
        try reopened.add(services: [ServiceIdentifier("b.example")], username: "b", secret: try secure("pb"))
        try reopened.save()
        #expect(try reopen(vault.path, password: "new password").contents.credentials.count == 2)
    }

    @Test func aRemovedVaultIsNotSilentlyRecreated() throws {
        let vault = try newVault()
        try FileManager.default.removeItem(atPath: vault.path)
        try vault.add(services: [ServiceIdentifier("a.example")], username: "a", secret: try secure("pa"))
        #expect(throws: VaultError.self) { try vault.save() }
        #expect(!FileManager.default.fileExists(atPath: vault.path))
    }

    @Test func equivalentsPersistAndConcurrentChangesToThemMerge() throws {
        let a = try newVault()
        a.updateEquivalents { $0.add(["amazon.com", "amazon.de"], at: $1) }
        try a.save()
        #expect(a.header.minorVersion == VaultHeader.currentMinorVersion)
        let b = try reopen(a.path)
        #expect(b.contents.equivalents.groups == [["amazon.com", "amazon.de"]])
        a.updateEquivalents { $0.add(["amazon.de", "amazon.fr"], at: $1) }
        b.updateEquivalents { $0.add(["ebay.com", "ebay.de"], at: $1) }  // later clock reading
        try a.save()
        try b.add(services: [ServiceIdentifier("x.example")], username: "x", secret: try secure("x"))
        try b.save()
        let groups = try reopen(a.path).contents.equivalents.groups
        #expect(
            groups.count == 2 && groups.contains(["ebay.com", "ebay.de"]),
            "b's group is added to what a saved: \(groups)")
        #expect(groups.contains { $0.contains("amazon.fr") }, "a's change is kept: \(groups)")
    }

    @Test func idPrefixesResolveUniquely() throws {
        let vault = try newVault()
        let credential = try vault.add(
            services: [ServiceIdentifier("a.example")], username: "a", secret: try secure("pa"))
        let full = credential.id.uuidString
        #expect(try vault.credential(id: full).id == credential.id)
        #expect(try vault.credential(id: String(full.lowercased().prefix(4))).id == credential.id)
        #expect(throws: VaultError.self) { _ = try vault.credential(id: "abc") }
        #expect(throws: VaultError.self) { _ = try vault.credential(id: "zzzz") }
    }
}
