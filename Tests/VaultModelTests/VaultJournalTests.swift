import Foundation
import Platform
import PwtuiTestSupport
import ServiceMatching
import Testing
import VaultCrypto
@testable import VaultModel

/// The journal (`VaultJournal`): a change appended as one record, the file opened as the snapshot
/// and its records, every record chained to what comes before it, and compaction.
@Suite struct VaultJournalTests {
    let temporary = TemporaryDirectory()
    let environment = VaultEnvironment(clock: steppingClock(), derivation: MemoizingDerivation())

    func reopen(_ path: String) throws -> Vault {
        try Vault.open(at: path, password: try secure(testPassword), environment: environment)
    }

    /// A vault saved once (its snapshot), then `changes` credentials added and saved one by one.
    func journaledVault(changes: Int) throws -> (vault: Vault, snapshot: [UInt8], frames: [[UInt8]]) {
        let vault = try createVault(in: temporary, environment: environment)
        try vault.save()
        let snapshot = try readFile(vault.path)
        var frames: [[UInt8]] = []
        for number in 0 ..< changes {
            let before = try readFile(vault.path).count
            try vault.add(
                services: [ServiceIdentifier("n\(number).example")], username: "user\(number)",
                secret: try secure("secret-\(number)"))
            try vault.save()
            frames.append(Array(try readFile(vault.path)[before...]))
        }
        return (vault, snapshot, frames)
    }

    @Test func aChangeIsAppendedAsOneRecordAndTheSnapshotStaysByteForByte() throws {
        let (vault, snapshot, frames) = try journaledVault(changes: 3)
        let file = try readFile(vault.path)
        #expect(Array(file.prefix(snapshot.count)) == snapshot, "the snapshot is never rewritten by an append")
        #expect(file.count == snapshot.count + frames.map(\.count).reduce(0, +))
        #expect(frames.allSatisfy { $0.count < 1024 }, "a record is the size of its change: \(frames.map(\.count))")
        #expect(vault.version == VaultVersion(generation: 1, changes: 3))
        let reopened = try reopen(vault.path)
        #expect(reopened.version == vault.version)
        #expect(Canonical(reopened) == Canonical(vault))
        #expect(try VaultStorage.loadVersion(vault.path).version == vault.version, "read from the file's end")
        #expect(try reopened.isCurrentWithFile())
    }

    @Test func recordsMovedDroppedOrCopiedFromElsewhereAreDamage() throws {
        let (vault, snapshot, frames) = try journaledVault(changes: 3)
        let path = vault.path
        func opens(_ bytes: [UInt8]) -> Bool? {
            do {
                try writeFile(path, bytes)
                _ = try reopen(path)
                return true
            } catch VaultError.corrupt {
                return false
            } catch {
                return nil
            }
        }
        #expect(opens(snapshot + frames[0] + frames[1] + frames[2]) == true)
        #expect(opens(snapshot + frames[1] + frames[0] + frames[2]) == false, "reordered")
        #expect(opens(snapshot + frames[0] + frames[2]) == false, "one dropped from the middle")
        #expect(opens(snapshot + frames[0] + frames[0]) == false, "one repeated")
        #expect(opens(snapshot + frames[1]) == false, "the first dropped")
        // Renumbered to look first: the chain still refuses it.
        var renumbered = frames[1]
        renumbered[4] = 1
        #expect(opens(snapshot + renumbered) == false)
        // The same changes on another snapshot of the same vault (after a compaction).
        try writeFile(path, snapshot + frames[0] + frames[1] + frames[2])
        let other = try reopen(path)
        try other.compact()
        let newSnapshot = try readFile(path)
        #expect(opens(newSnapshot + frames[0]) == false, "a record of the snapshot before")
        // A record of another vault under another key.
        let (stranger, _, strangerFrames) = try journaledVault(changes: 1)
        _ = stranger
        #expect(opens(snapshot + strangerFrames[0]) == false)
        // Every single flipped byte of a record is damage or, in the lengths, a torn end.
        let whole = snapshot + frames[0]
        for offset in snapshot.count ..< whole.count {
            var damaged = whole
            damaged[offset] ^= 0x01
            let outcome = opens(damaged)
            let inLength = offset < snapshot.count + 4 || offset >= whole.count - 4
            if inLength {
                #expect(outcome != nil, "byte \(offset)")
            } else {
                #expect(outcome == false, "byte \(offset) of the record")
            }
        }
    }

    @Test func aTornLastRecordIsLeftOutAndCutOffByTheNextAppend() throws {
        let (vault, snapshot, frames) = try journaledVault(changes: 2)
        let path = vault.path
        let whole = try readFile(path)
        for cut in 1 ..< frames[1].count {
            try writeFile(path, Array(whole.dropLast(cut)))
            let reopened = try reopen(path)
            #expect(reopened.version == VaultVersion(generation: 1, changes: 1), "cut \(cut)")
            #expect(reopened.contents.credentials.map(\.username) == ["user0"])
        }
        // Zeros where the record should be (the file grew before its data reached the disk).
        try writeFile(path, snapshot + frames[0] + [UInt8](repeating: 0, count: frames[1].count))
        let reopened = try reopen(path)
        #expect(reopened.contents.credentials.map(\.username) == ["user0"])
        #expect(try reopened.isCurrentWithFile(), "the file is as it read it, torn end and all")
        try reopened.add(services: [ServiceIdentifier("late.example")], username: "late", secret: try secure("l"))
        try reopened.save()
        #expect(reopened.version == VaultVersion(generation: 1, changes: 2), "appended after cutting the torn end off")
        let file = try readFile(path)
        #expect(Array(file.prefix(snapshot.count + frames[0].count)) == snapshot + frames[0])
        #expect(try reopen(path).contents.credentials.map(\.username) == ["user0", "late"])
    }

    @Test func aChangesCredentialsAreFoundOneByOneOrInOnePass() throws {
        let vault = try createVault(in: temporary, environment: environment)
        for number in 0 ..< 40 {
            try vault.add(services: [ServiceIdentifier("p\(number).example")], username: "u", secret: try secure("p"))
        }
        let ids = vault.contents.credentials.map(\.id)
        for picked in [[3, 39], Array(stride(from: 1, to: 40, by: 2))] {
            let wanted = Set(picked.map { ids[$0] } + [UUID()])
            #expect(wanted.count - 1 > VaultContents.idsLookedUpOneByOne || picked.count == 2)
            #expect(vault.contents.positions(of: wanted) == picked)
        }
    }

    @Test func theJournalStaysWithinItsShareOfTheSnapshot() throws {
        let vault = try createVault(in: temporary, environment: environment)
        try vault.save()
        var generations: Set<UInt64> = []
        for number in 0 ..< 400 {
            try vault.add(
                services: [ServiceIdentifier("n\(number).example")], username: "u\(number)",
                secret: try secure("secret-\(number)"), notes: String(repeating: "n", count: 200))
            try vault.save()
            generations.insert(vault.header.generation)
            let journalBytes = vault.journal.end - VaultJournal.snapshotEnd(of: vault.header)
            let bound = max(Vault.journalFloor, Int(vault.header.payloadLength) / Vault.compactionShare)
            #expect(journalBytes <= bound)
        }
        #expect(generations.count > 1, "the journal was compacted into new snapshots")
        #expect(try Canonical(reopen(vault.path)) == Canonical(vault))
    }

    @Test func twoWritersAppendingTheSecondReplaysOntoTheFirstsRecord() throws {
        let (a, _, _) = try journaledVault(changes: 1)
        let b = try reopen(a.path)
        try a.add(services: [ServiceIdentifier("a.example")], username: "a", secret: try secure("pa"))
        try a.save()
        #expect(a.version == VaultVersion(generation: 1, changes: 2))
        let first = try #require(b.contents.credentials.first)
        try b.update(first.id) { $0.title = "renamed by b" }
        try b.save()
        #expect(b.version == VaultVersion(generation: 2), "b found a's record, replayed onto it, wrote a snapshot")
        let merged = try reopen(a.path)
        #expect(Set(merged.contents.credentials.map(\.username)) == ["user0", "a"])
        #expect(merged.contents.credentials.first { $0.id == first.id }?.title == "renamed by b")
        #expect(try a.reloadIfChanged())
        #expect(Canonical(a) == Canonical(merged))
    }

    @Test func aVaultOfAnOlderFormatGetsItsSnapshotFirst() throws {
        let vault = try createVault(in: temporary, environment: environment)
        try vault.add(services: [ServiceIdentifier("a.example")], username: "a", secret: try secure("pa"))
        try vault.save()
        // The file as format 1.5 wrote it: no journal flag (the data key is bound to the header's
        // version and flags, so the older header is made as pwtui 1.5 made it).
        var header = VaultHeader(
            minorVersion: 5, flags: 0, vaultID: vault.header.vaultID, generation: 4, kdf: .cheapest,
            salt: try RandomBytes.make(16), wrappedKeyNonce: try RandomBytes.make(24), wrappedKey: [],
            keyCommitment: [],
            payloadNonce: [UInt8](repeating: 0, count: 24), payloadLength: 0)
        let kek = try environment.derivation.deriveKey(
            password: try secure(testPassword), salt: header.salt, parameters: .cheapest)
        let dek = try SecureBytes.random(count: 32)
        header.keyCommitment = try VaultFormat.commitment(kek: kek, header: header)
        try VaultFormat.wrap(dek, with: kek, into: &header)
        let image = try VaultFormat.seal(vault.contents, header: &header, dataKey: dek)
        try writeFile(vault.path, image)
        // Two copies of the older file merged with its password: the result keeps the version
        // its key is wrapped for (a merge once stamped the current one and could not open it).
        let merged = try VaultFileReconcile.reconciledImage(
            base: nil, ours: (image, "ours"), theirs: (image, "theirs"),
            keyring: VaultKeyring(password: try secure(testPassword), environment: environment)
        ).0
        let reopenedMerge = try VaultFormat.unlock(
            merged, password: try secure(testPassword), derivation: environment.derivation, bounds: .standard,
            path: "merged")
        #expect(reopenedMerge.contents.credentials.count == 1)
        // An older file with bytes after it is damaged, as before the journal.
        try writeFile(vault.path + ".extended", image + [0])
        #expect(throws: VaultError.self) { _ = try reopen(vault.path + ".extended") }

        let opened = try reopen(vault.path)
        #expect(opened.header.isJournaled && opened.header.minorVersion == VaultHeader.currentMinorVersion)
        try opened.add(services: [ServiceIdentifier("b.example")], username: "b", secret: try secure("pb"))
        try opened.save()
        #expect(opened.version == VaultVersion(generation: 5), "the first save of an older file is a snapshot")
        try opened.add(services: [ServiceIdentifier("c.example")], username: "c", secret: try secure("pc"))
        try opened.save()
        #expect(opened.version == VaultVersion(generation: 5, changes: 1))
        #expect(Set(try reopen(vault.path).contents.credentials.map(\.username)) == ["a", "b", "c"])
    }

    /// Random change sequences, saved as journal records with reopenings and compactions between
    /// them, give what the same changes give a vault saved whole each time (the model: the format
    /// before the journal). Each vault has a clock of its own from the same start, so that the
    /// same changes get the same stamps.
    @Test(arguments: 0 ..< 12)
    func randomChangesThroughTheJournalMatchWholeSaves(seed: UInt64) throws {
        var random = SplitMix(seed: seed)
        let journaledEnvironment = VaultEnvironment(clock: steppingClock(), derivation: MemoizingDerivation())
        var journaled = try createVault(in: temporary, environment: journaledEnvironment)
        try journaled.save()
        let whole = try createVault(
            in: temporary, environment: VaultEnvironment(clock: steppingClock(), derivation: MemoizingDerivation()))
        try whole.save()
        var ids: [UUID] = []
        for step in 0 ..< 60 {
            let change = ids.isEmpty ? 0 : Int(random.next() % 9)
            let target = ids.isEmpty ? UUID() : ids[Int(random.next() % UInt64(ids.count))]
            let added = UUID()
            for vault in [journaled, whole] {
                try apply(change, step: step, target: target, added: added, to: vault)
            }
            if change == 0 { ids.append(added) }
            if change == 7 { ids.removeAll { $0 == target } }
            try journaled.save()
            try whole.compact()
            #expect(Canonical(journaled) == Canonical(whole), "seed \(seed), step \(step)")
            switch random.next() % 8 {
            case 0:
                journaled = try Vault.open(
                    at: journaled.path, password: try secure(testPassword), environment: journaledEnvironment)
            case 1: try journaled.compact()
            default: break
            }
        }
        #expect(Canonical(try reopen(journaled.path)) == Canonical(try reopen(whole.path)))
    }

    /// One of nine changes, the same on both vaults: 0 adds a credential with the id `added`.
    func apply(_ change: Int, step: Int, target: UUID, added: UUID, to vault: Vault) throws {
        switch change {
        case 0:
            let arena = try SecretArena()
            let stamp = Timestamp(millisecondsSince1970: 1_600_000_000_000 + Int64(step))
            let credential = Credential(
                id: added, title: "", services: [try ServiceIdentifier("s\(step).example")], username: "u\(step)",
                secret: try arena.store(try secure("p\(step)")), notes: "", rank: 0, created: stamp, modified: stamp)
            try vault.adopt(credential, secretsFrom: arena)
        case 1: try vault.update(target) { $0.title = "title \(step)" }
        case 2: try vault.replaceSecret(of: target, with: try secure("new \(step)"))
        case 3: try vault.setField(of: target, name: "pin", text: nil, secret: try secure("\(step)"))
        case 4: try vault.setField(of: target, name: "note", text: "text \(step)", secret: try secure(""))
        case 5:
            if vault.contents.credential(withID: target)?.field(named: "pin") != nil {
                try vault.removeField(of: target, name: "pin")
            } else {
                try vault.update(target) { $0.notes = "no pin at \(step)" }
            }
        case 6:
            try vault.setOneTimeKey(
                of: target, to: OneTimeParameters(algorithm: .sha1, digits: 6, period: 30),
                key: try secure("key \(step)"))
        case 7: try vault.remove(target)
        default:
            vault.updateEquivalents { domains, time in domains.add(["e\(step).example", "f\(step).example"], at: time) }
        }
    }
}

/// A vault's contents as comparable text: every credential whole, secrets by their bytes (a
/// reference is only an offset into one arena), the tombstones and the equivalents.
struct Canonical: Equatable {
    let credentials: [String]
    let tombstones: [Tombstone]
    let equivalents: [[String]]

    init(_ vault: Vault) {
        func text(_ reference: SecretReference) -> String { secretText(vault, reference) }
        credentials = vault.contents.credentials.map { credential in
            var parts = [
                credential.id.uuidString, credential.title, credential.username, credential.notes,
                credential.services.map(\.text).joined(separator: ","), "\(credential.rank)",
                "\(credential.created.millisecondsSince1970)", "\(credential.modified.millisecondsSince1970)",
                "secret=" + text(credential.secret), "kind=\(credential.kind)",
            ]
            parts += credential.history.map { "was " + text($0.secret) + "@\($0.replaced.millisecondsSince1970)" }
            if let totp = credential.totp { parts.append("totp \(totp.parameters) " + text(totp.key)) }
            parts += credential.totpHistory.map { "totp was " + text($0.key.key) }
            for field in credential.fields {
                parts.append("field \(field.name)=" + (field.text ?? field.secret.map { "secret " + text($0) } ?? ""))
                parts += field.history.map { "field was " + text($0.secret) }
            }
            parts += credential.allowedPrograms
            return parts.joined(separator: "|")
        }
        tombstones = vault.contents.tombstones
        equivalents = vault.contents.equivalents.groups
    }
}

/// A small, seeded generator (SplitMix64), so that a failing sequence can be replayed.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed &+ 0x9E37_79B9_7F4A_7C15 }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// An import's "password set" time (issue 38, `Credential.importedSecretSet`) is kept by both
/// ways a credential is written: a journal record and a snapshot. (A merge takes it like any
/// field: `CredentialFieldRule`.)
@Suite struct ImportedSecretSetTests {
    let temporary = TemporaryDirectory()
    let environment = VaultEnvironment(clock: steppingClock(), derivation: MemoizingDerivation())

    @Test func keptByRecordsAndSnapshots() throws {
        let vault = try createVault(in: temporary, environment: environment)
        try vault.save()
        let arena = try SecretArena()
        let created = Timestamp(millisecondsSince1970: 1_600_000_000_000)
        var credential = Credential(
            id: UUID(), title: "", services: [try ServiceIdentifier("kp.example")], username: "u",
            secret: try arena.store(try secure("pw")), created: created, modified: created)
        credential.importedSecretSet = Timestamp(millisecondsSince1970: 1_700_000_000_000)
        try vault.adopt(credential, secretsFrom: arena)
        try vault.save()
        #expect(vault.version.changes == 1, "a journal record")
        let fromRecord = try #require(
            try Vault.open(at: vault.path, password: try secure(testPassword), environment: environment).contents
                .credential(withID: credential.id))
        #expect(fromRecord.importedSecretSet == credential.importedSecretSet)
        #expect(fromRecord.secretSet == credential.importedSecretSet)
        try vault.compact()
        let reopened = try Vault.open(at: vault.path, password: try secure(testPassword), environment: environment)
        #expect(reopened.contents.credential(withID: credential.id)?.importedSecretSet == credential.importedSecretSet)
        // A newer password replaces it as the time the password was set.
        try reopened.replaceSecret(of: credential.id, with: try secure("new"))
        #expect(
            reopened.contents.credential(withID: credential.id)?.secretSet ?? created > credential.importedSecretSet!)
    }
}

/// The rollback memory counts journal records (`VaultVersion`), and still reads the lines pwtui
/// wrote before the journal.
@Suite struct GenerationMemoryJournalTests {
    let temporary = TemporaryDirectory()

    @Test func fewerRecordsOfTheSameSnapshotAreOlder() throws {
        let header = VaultHeader(
            vaultID: Array(repeating: 9, count: 16), generation: 4, kdf: .cheapest, salt: [], wrappedKeyNonce: [],
            wrappedKey: [], keyCommitment: [], payloadNonce: [], payloadLength: 0)
        var memory = GenerationMemory()
        #expect(memory.opened(header, at: VaultVersion(generation: 4, changes: 3)) == nil)
        #expect(
            memory.opened(header, at: VaultVersion(generation: 4, changes: 2))
                == VaultVersion(generation: 4, changes: 3))
        #expect(
            memory.opened(header, at: VaultVersion(generation: 5)) == nil, "a new snapshot is newer than any record")
        let path = try temporary.freshPath("generations")
        try memory.save(to: path)
        #expect(GenerationMemory.load(from: path) == memory)
        try writeFile(path, Array("0909090909090909090909090909090909 7\n".utf8))
        let old = GenerationMemory.load(from: path)
        #expect(old.highest.values.first == VaultVersion(generation: 7), "a line without records counts none")
    }
}
