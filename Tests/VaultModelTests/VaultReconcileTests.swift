import Foundation
import Platform
import PwtuiTestSupport
import ServiceMatching
import Testing
import VaultCrypto
@testable import VaultModel

/// The rules of `VaultReconcile`: hand-picked cases for each rule, then generated copies that
/// changed apart (random adds, edits, password changes and removals on machines with skewed
/// clocks) checked for commutativity, idempotence and that no password is lost.
@Suite struct VaultReconcileTests {
    // MARK: A machine's copy, changed the way `Vault` changes it

    /// One copy of the contents and the machine's clock, which may be skewed.
    struct Replica {
        var contents: VaultContents
        var skew: Int64
        var time: Int64 = 1_700_000_000_000

        init(_ contents: VaultContents, skew: Int64 = 0) {
            self.contents = contents
            self.skew = skew
        }

        /// `Vault`'s rule: now on this machine's clock, but after the credential's last change.
        mutating func stamp(after credential: Credential?) -> Timestamp {
            time += 1000
            let now = Timestamp(millisecondsSince1970: time + skew)
            guard let credential else { return now }
            return max(now, Timestamp(millisecondsSince1970: credential.modified.millisecondsSince1970 + 1))
        }

        @discardableResult
        mutating func add(_ secret: String, title: String = "", id: UUID = UUID()) throws -> UUID {
            let now = stamp(after: nil)
            let reference = try contents.secrets.store(try secure(secret))
            contents.credentials.append(
                Credential(
                    id: id, title: title, services: [try ServiceIdentifier("example.com")], username: "u",
                    secret: reference, created: now, modified: now))
            return id
        }

        mutating func edit(_ id: UUID, _ body: (inout Credential) -> Void) throws {
            let index = try #require(contents.credentials.firstIndex { $0.id == id })
            let now = stamp(after: contents.credentials[index])
            body(&contents.credentials[index])
            contents.credentials[index].modified = now
        }

        mutating func setPassword(_ id: UUID, _ secret: String) throws {
            let index = try #require(contents.credentials.firstIndex { $0.id == id })
            let now = stamp(after: contents.credentials[index])
            let reference = try contents.secrets.store(try secure(secret))
            contents.credentials[index].history.append(
                PreviousSecret(secret: contents.credentials[index].secret, replaced: now))
            contents.credentials[index].secret = reference
            contents.credentials[index].modified = now
        }

        mutating func remove(_ id: UUID) throws {
            let index = try #require(contents.credentials.firstIndex { $0.id == id })
            let now = stamp(after: contents.credentials[index])
            let seen = contents.credentials[index].modified
            contents.credentials.remove(at: index)
            contents.tombstones.append(Tombstone(id: id, deleted: now, seen: seen))
        }
    }

    /// Everything a copy holds, secrets as text, credentials by id: two copies with the same
    /// snapshot have the same contents, whatever their order and arenas.
    struct Snapshot: Equatable, CustomStringConvertible {
        struct Entry: Equatable {
            var fields: [String]
            var modified: Int64
            var secret: String
            var history: [String]
        }
        var credentials: [UUID: Entry]
        var tombstones: [UUID: Int64]
        var equivalents: [[String]]

        init(_ contents: VaultContents) {
            func text(_ reference: SecretReference) -> String {
                contents.secrets.withBytes(of: reference) { String(decoding: $0, as: UTF8.self) }
            }
            credentials = Dictionary(
                uniqueKeysWithValues: contents.credentials.map { c in
                    (
                        c.id,
                        Entry(
                            fields: [
                                c.title, c.username, c.notes, "\(c.rank)",
                                c.services.map(\.text).joined(separator: ","),
                                c.totp.map {
                                    "\($0.parameters.algorithm)/\($0.parameters.digits)/\($0.parameters.period)/\(text($0.key))"
                                } ?? "",
                                c.allowedPrograms.joined(separator: ","),
                            ],
                            modified: c.modified.millisecondsSince1970, secret: text(c.secret),
                            history: c.history.map { "\($0.replaced.millisecondsSince1970):\(text($0.secret))" })
                    )
                })
            tombstones = Dictionary(
                uniqueKeysWithValues: contents.tombstones.map { ($0.id, $0.deleted.millisecondsSince1970) })
            equivalents = contents.equivalents.groups
        }

        /// Every password this copy holds for `id`, current or in history.
        func passwords(of id: UUID) -> Set<String> {
            guard let entry = credentials[id] else { return [] }
            return Set([entry.secret] + entry.history.map { String($0.split(separator: ":", maxSplits: 1)[1]) })
        }

        var description: String {
            credentials.sorted { $0.key.uuidString < $1.key.uuidString }
                .map { "\($0.key.uuidString.prefix(8)) \($0.value)" }.joined(separator: "\n")
                + "\ntombstones \(tombstones.count), equivalents \(equivalents)"
        }
    }

    func merge(_ base: VaultContents?, _ ours: VaultContents, _ theirs: VaultContents) throws -> VaultContents {
        try VaultReconcile.reconcile(base: base, ours: ours, theirs: theirs).0
    }

    func base(_ build: (inout Replica) throws -> Void) throws -> Replica {
        var replica = Replica(try .empty())
        try build(&replica)
        return replica
    }

    // MARK: The rules, one by one

    @Test func bothChangedThePasswordTheLaterWinsAndTheOtherIsKept() throws {
        var id = UUID()
        let b = try base { id = try $0.add("p0") }
        var ours = b, theirs = b
        theirs.time += 5000  // theirs changed it later
        try ours.setPassword(id, "ours")
        try theirs.setPassword(id, "theirs")
        for merged in [
            try merge(b.contents, ours.contents, theirs.contents),
            try merge(b.contents, theirs.contents, ours.contents),
        ] {
            let snapshot = Snapshot(merged)
            #expect(snapshot.credentials[id]?.secret == "theirs")
            #expect(snapshot.passwords(of: id) == ["p0", "ours", "theirs"])
        }
    }

    @Test(
        "a password both sides replaced is listed once in the history, at its later replacement, however often merged (issue 26, 11)"
    )
    func aPasswordBothReplacedIsListedOnce() throws {
        var id = UUID()
        let b = try base { id = try $0.add("p0") }
        var ours = b, theirs = b
        theirs.time += 5000
        try ours.setPassword(id, "ours")
        try theirs.setPassword(id, "theirs")
        var merged = try merge(b.contents, ours.contents, theirs.contents)
        var snapshot = Snapshot(merged)
        let history = snapshot.credentials[id]?.history ?? []
        #expect(history.filter { $0.hasSuffix(":p0") }.count == 1, "\(history)")
        let theirsReplaced = try #require(Snapshot(theirs.contents).credentials[id]?.history.first)
        #expect(
            history.contains(theirsReplaced), "p0 at the later of its two replacements: \(history) vs \(theirsReplaced)"
        )
        // Merged again with either side, and with a third copy: still once.
        merged = try merge(ours.contents, merged, ours.contents)
        merged = try merge(nil, merged, theirs.contents)
        snapshot = Snapshot(merged)
        #expect(snapshot.credentials[id]?.history.filter { $0.hasSuffix(":p0") }.count == 1, "\(snapshot)")
        #expect(snapshot.passwords(of: id) == ["p0", "ours", "theirs"])
    }

    @Test func differentFieldsChangedOnEachSideBothStay() throws {
        var id = UUID()
        let b = try base { id = try $0.add("p0", title: "old") }
        var ours = b, theirs = b
        try ours.edit(id) { $0.title = "new title" }
        try theirs.edit(id) { $0.username = "new user" }
        let merged = Snapshot(try merge(b.contents, ours.contents, theirs.contents))
        #expect(merged.credentials[id]?.fields[0] == "new title")
        #expect(merged.credentials[id]?.fields[1] == "new user")
        #expect(merged == Snapshot(try merge(b.contents, theirs.contents, ours.contents)))
    }

    @Test func programBindingsMergeLikeAnyFieldBesideAnotherSidesEdit() throws {
        var id = UUID()
        let b = try base { id = try $0.add("p0", title: "token") }
        var ours = b, theirs = b
        try ours.edit(id) { $0.allowedPrograms = ["git"] }
        try theirs.edit(id) { $0.username = "bot" }
        for merged in [
            try merge(b.contents, ours.contents, theirs.contents),
            try merge(b.contents, theirs.contents, ours.contents),
        ] {
            let credential = try #require(merged.credentials.first { $0.id == id })
            #expect(credential.allowedPrograms == ["git"] && credential.username == "bot")
        }
        // Both bound it: the later change wins, whichever side merges.
        try theirs.edit(id) { $0.allowedPrograms = ["podman"] }
        let one = try merge(b.contents, ours.contents, theirs.contents)
        let other = try merge(b.contents, theirs.contents, ours.contents)
        #expect(one.credentials.first { $0.id == id }?.allowedPrograms == ["podman"])
        #expect(other.credentials.first { $0.id == id }?.allowedPrograms == ["podman"])
    }

    @Test func authenticatorKeysMergeLikeAnyFieldWithTheirBytesInTheResult() throws {
        var id = UUID()
        let b = try base { id = try $0.add("p0", title: "old") }
        var ours = b, theirs = b
        theirs.time += 5000
        let ourKey = try ours.contents.secrets.store(try secure("our-key"))
        try ours.edit(id) { $0.totp = OneTimeKey(parameters: .standard, key: ourKey) }
        try theirs.edit(id) { $0.title = "new title" }
        let one = Snapshot(try merge(b.contents, ours.contents, theirs.contents))
        #expect(one.credentials[id]?.fields[5] == "sha1/6/30/our-key" && one.credentials[id]?.fields[0] == "new title")
        #expect(one == Snapshot(try merge(b.contents, theirs.contents, ours.contents)))
        // Both set a key: the later one wins, on either side of the merge.
        let theirKey = try theirs.contents.secrets.store(try secure("their-key"))
        try theirs.edit(id) {
            $0.totp = OneTimeKey(
                parameters: OneTimeParameters(algorithm: .sha256, digits: 8, period: 60), key: theirKey)
        }
        let both = Snapshot(try merge(b.contents, ours.contents, theirs.contents))
        #expect(both.credentials[id]?.fields[5] == "sha256/8/60/their-key")
        #expect(both == Snapshot(try merge(b.contents, theirs.contents, ours.contents)))
    }

    @Test("a backup restored and committed reverts nothing: notes, services and the key set since stay (issue 24, 3)")
    func aReplayedOlderCopyRevertsNothing() throws {
        var id = UUID()
        let backup = try base { id = try $0.add("p0", title: "old") }
        // Changes made after the backup, then seen by both machines (the ancestor).
        var current = backup
        let key = try current.contents.secrets.store(try secure("key-set-since"))
        let since = try ServiceIdentifier("since.example")
        try current.edit(id) {
            $0.notes = "notes since"
            $0.services.append(since)
            $0.totp = OneTimeKey(parameters: .standard, key: key)
        }
        let ancestor = current
        // One machine goes on editing; the other puts the backup back and commits it.
        try current.edit(id) { $0.title = "edited since" }
        var restored = backup
        restored.time = current.time + 60_000  // the restore happens later, on any clock
        for merged in [
            try merge(ancestor.contents, current.contents, restored.contents),
            try merge(ancestor.contents, restored.contents, current.contents),
        ] {
            let fields = try #require(Snapshot(merged).credentials[id]?.fields)
            #expect(fields[0] == "edited since" && fields[2] == "notes since", "\(fields)")
            #expect(fields[4].contains("since.example"), "\(fields)")
            #expect(fields[5] == "sha1/6/30/key-set-since", "\(fields)")
        }
        let (_, summary) = try VaultReconcile.reconcile(
            base: ancestor.contents, ours: current.contents, theirs: restored.contents)
        #expect(summary.changed == 0, "the replay brings nothing in: \(summary)")
    }

    @Test(
        "a secret named field changed on both sides keeps the losing value in its history, like the password (issue 24, 4)"
    )
    func aSecretFieldThatLosesAMergeKeepsItsValueInHistory() throws {
        var id = UUID()
        var b = try base { id = try $0.add("p0") }
        let first = try b.contents.secrets.store(try secure("1111"))
        try b.edit(id) { $0.fields = [NamedField(name: "pin", value: .secret(first))] }
        var ours = b, theirs = b
        theirs.time += 5000  // theirs changed it later
        for (replica, value) in [(0, "2222"), (1, "3333")] {
            var copy = replica == 0 ? ours : theirs
            let reference = try copy.contents.secrets.store(try secure(value))
            let at = copy.stamp(after: nil)
            try copy.edit(id) { $0.set(NamedField(name: "pin", value: .secret(reference)), at: at) }
            if replica == 0 { ours = copy } else { theirs = copy }
        }
        for merged in [
            try merge(b.contents, ours.contents, theirs.contents),
            try merge(b.contents, theirs.contents, ours.contents),
        ] {
            let credential = try #require(merged.credentials.first { $0.id == id })
            let field = try #require(credential.fields.first { $0.name == "pin" })
            func text(_ reference: SecretReference) -> String {
                merged.secrets.withBytes(of: reference) { String(decoding: $0, as: UTF8.self) }
            }
            #expect(field.secret.map(text) == "3333")
            #expect(
                Set(field.history.map { text($0.secret) }) == ["1111", "2222"],
                "\(field.history.map { text($0.secret) })")
        }
    }

    @Test(
        "authenticator keys set on both sides: the later is current, the other is kept in the key history, through the file too (issue 24, 4)"
    )
    func aKeyThatLosesAMergeIsKept() throws {
        var id = UUID()
        let b = try base { id = try $0.add("p0") }
        var ours = b, theirs = b
        theirs.time += 5000
        for (isOurs, value) in [(true, "our key"), (false, "their key")] {
            var copy = isOurs ? ours : theirs
            let reference = try copy.contents.secrets.store(try secure(value))
            let at = copy.stamp(after: nil)
            try copy.edit(id) { $0.replaceOneTimeKey(with: OneTimeKey(parameters: .standard, key: reference), at: at) }
            if isOurs { ours = copy } else { theirs = copy }
        }
        for merged in [
            try merge(b.contents, ours.contents, theirs.contents),
            try merge(b.contents, theirs.contents, ours.contents),
        ] {
            let decoded = try PayloadCodec.decode(try PayloadCodec.encode(merged), path: "merged")
            let credential = try #require(decoded.credentials.first { $0.id == id })
            func text(_ reference: SecretReference) -> String {
                decoded.secrets.withBytes(of: reference) { String(decoding: $0, as: UTF8.self) }
            }
            #expect(credential.totp.map { text($0.key) } == "their key")
            #expect(credential.totpHistory.map { text($0.key.key) } == ["our key"])
        }
    }

    @Test func aRemovalLosesToALaterEdit() throws {
        var id = UUID()
        let b = try base { id = try $0.add("p0") }
        var ours = b, theirs = b
        try ours.remove(id)
        theirs.time += 5000
        try theirs.setPassword(id, "edited after")
        for merged in [
            try merge(b.contents, ours.contents, theirs.contents),
            try merge(b.contents, theirs.contents, ours.contents),
        ] {
            let snapshot = Snapshot(merged)
            #expect(snapshot.credentials[id]?.secret == "edited after")
            #expect(snapshot.tombstones[id] == nil)
        }
        // And without an ancestor (a conflict copy), by the stamps alone.
        #expect(Snapshot(try merge(nil, ours.contents, theirs.contents)).credentials[id]?.secret == "edited after")
    }

    @Test func aRemovalLosesToAnEditItNeverSawEvenWhenTheEditorsClockIsBehind() throws {
        var id = UUID()
        let b = try base { id = try $0.add("p0") }
        var ours = b, theirs = b
        theirs.skew = -3_600_000  // an hour slow: its edit is stamped before the removal
        try ours.remove(id)
        try theirs.edit(id) { $0.notes = "kept" }
        let merged = Snapshot(try merge(b.contents, ours.contents, theirs.contents))
        #expect(merged.credentials[id]?.fields[2] == "kept")
        #expect(merged == Snapshot(try merge(b.contents, theirs.contents, ours.contents)))
        // The survivor is stamped after the removal, so a merge without ancestor agrees later.
        let again = Snapshot(try merge(nil, ours.contents, try merge(b.contents, theirs.contents, ours.contents)))
        #expect(again.credentials[id]?.fields[2] == "kept")
    }

    @Test(
        "without an ancestor, a removal made later that never saw the copy's new password does not cost it (issue 24, 4)"
    )
    func aLaterRemovalWithoutAncestorKeepsAPasswordItNeverSaw() throws {
        var id = UUID()
        let b = try base { id = try $0.add("p0") }
        var vault = b, copy = b
        try copy.setPassword(id, "set on the copy")
        vault.time = copy.time + 60_000  // the vault removes it later, never having seen the change
        try vault.remove(id)
        for merged in [try merge(nil, vault.contents, copy.contents), try merge(nil, copy.contents, vault.contents)] {
            let snapshot = Snapshot(merged)
            #expect(snapshot.credentials[id]?.secret == "set on the copy", "\(snapshot)")
            #expect(snapshot.tombstones[id] == nil)
        }
    }

    @Test(
        "without an ancestor, a removal first and then the copy's password change on a machine 2 hours slow: the password stays (issue 24, 4)"
    )
    func aRemovalFirstThenASlowCopysPasswordChangeKeepsIt() throws {
        var id = UUID()
        let b = try base { id = try $0.add("p0") }
        var vault = b
        var copy = b
        copy.skew = -7_200_000
        try vault.remove(id)
        copy.time = vault.time + 60_000  // a minute after the removal in real time, 2 hours behind on its clock
        try copy.setPassword(id, "set on the slow copy")
        for merged in [try merge(nil, vault.contents, copy.contents), try merge(nil, copy.contents, vault.contents)] {
            #expect(Snapshot(merged).credentials[id]?.secret == "set on the slow copy", "\(Snapshot(merged))")
        }
        // A copy that changed nothing since: the removal wins.
        #expect(Snapshot(try merge(nil, vault.contents, b.contents)).credentials[id] == nil)
    }

    @Test func aRemovalOfAnUnchangedCredentialWins() throws {
        var id = UUID()
        var keep = UUID()
        let b = try base {
            id = try $0.add("p0"); keep = try $0.add("p1")
        }
        var ours = b
        let theirs = b
        try ours.remove(id)
        for merged in [
            try merge(b.contents, ours.contents, theirs.contents),
            try merge(b.contents, theirs.contents, ours.contents),
            try merge(nil, ours.contents, theirs.contents),
        ] {
            let snapshot = Snapshot(merged)
            #expect(snapshot.credentials[id] == nil)
            #expect(snapshot.tombstones[id] != nil)
            #expect(snapshot.credentials[keep] != nil)
        }
    }

    @Test func aChangeMadeAfterSeeingAnotherWinsWhateverTheClocksSay() throws {
        // Machine A (correct clock) changes the password; machine B, an hour slow, pulls that
        // and changes it again. B's change is the later one, though its clock says otherwise.
        var id = UUID()
        var a = try base { id = try $0.add("p0") }
        let b0 = a
        try a.setPassword(id, "from A")
        var b = Replica(try merge(b0.contents, b0.contents, a.contents), skew: -3_600_000)
        let seen = b.contents
        try b.setPassword(id, "from B, later")
        // With the ancestor (git), and without it (a conflict copy): B's password is current.
        #expect(Snapshot(try merge(seen, a.contents, b.contents)).credentials[id]?.secret == "from B, later")
        #expect(Snapshot(try merge(nil, a.contents, b.contents)).credentials[id]?.secret == "from B, later")
        #expect(
            Snapshot(try merge(nil, b.contents, a.contents)).passwords(of: id) == ["p0", "from A", "from B, later"])
    }

    @Test func equivalentsAreMergedPerGroup() throws {
        var o = try VaultContents.empty(), t = try VaultContents.empty(), b = try VaultContents.empty()
        b.equivalents.add(["a.com", "a.de"], at: Timestamp(millisecondsSince1970: 1))
        o.equivalents = b.equivalents
        t.equivalents = b.equivalents
        o.equivalents.add(["a.com", "a.fr"], at: Timestamp(millisecondsSince1970: 2))
        t.equivalents.add(["b.com", "b.de"], at: Timestamp(millisecondsSince1970: 3))
        let merged = try merge(b, o, t)
        #expect(merged.equivalents.groups == [["a.com", "a.de", "a.fr"], ["b.com", "b.de"]])
        #expect(try merge(b, t, o).equivalents == merged.equivalents)
        // A group removed on one side goes.
        var later = merged
        later.equivalents.remove(["b.com", "b.de"], at: Timestamp(millisecondsSince1970: 4))
        #expect(try merge(merged, merged, later).equivalents.groups == [["a.com", "a.de", "a.fr"]])
        #expect(try merge(merged, later, merged).equivalents.groups == [["a.com", "a.de", "a.fr"]])
    }

    @Test func theStampOfAnEditFollowsTheLastChangeWhenTheClockIsBehind() throws {
        let temporary = TemporaryDirectory()
        let late = Clock { Timestamp(millisecondsSince1970: 5_000) }
        let vault = try createVault(
            in: temporary, environment: VaultEnvironment(clock: late, derivation: MemoizingDerivation()))
        let credential = try vault.add(
            services: [try ServiceIdentifier("example.com")], username: "u", secret: try secure("p"))
        try vault.update(credential.id) { $0.title = "one" }
        try vault.replaceSecret(of: credential.id, with: try secure("q"))
        let after = try #require(vault.contents.credential(withID: credential.id))
        #expect(after.modified.millisecondsSince1970 == 5_002)
        #expect(after.secretSet.millisecondsSince1970 == 5_002)
    }

    // MARK: Generated copies

    /// Random changes on two machines from one ancestor, with skewed clocks.
    static func generated(seed: UInt64) throws -> (base: VaultContents, ours: VaultContents, theirs: VaultContents) {
        var rng = SeededGenerator(seed: seed)
        var b = Replica(try .empty())
        for i in 0 ..< 8 { try b.add("base-\(seed)-\(i)", title: "t\(i)") }
        var copies = [b, b]
        copies[0].skew = Int64.random(in: -7_200_000 ... 7_200_000, using: &rng)
        copies[1].skew = Int64.random(in: -7_200_000 ... 7_200_000, using: &rng)
        var counter = 0
        for _ in 0 ..< 24 {
            let side = Int.random(in: 0 ... 1, using: &rng)
            counter += 1
            let ids = copies[side].contents.credentials.map(\.id)
            switch Int.random(in: 0 ... 5, using: &rng) {
            case 0 where !ids.isEmpty:
                try copies[side].remove(ids.randomElement(using: &rng)!)
            case 1 where !ids.isEmpty:
                let title = "title-\(counter)"
                try copies[side].edit(ids.randomElement(using: &rng)!) { $0.title = title }
            case 2 where !ids.isEmpty:
                let user = "user-\(Int.random(in: 0 ... 3, using: &rng))"
                try copies[side].edit(ids.randomElement(using: &rng)!) { $0.username = user }
            case 3 where !ids.isEmpty && counter % 3 == 0:
                // A binding, among the other edits (format 1.4).
                let programs = [["git"], ["podman"], [], ["git", "podman"]][Int.random(in: 0 ... 3, using: &rng)]
                try copies[side].edit(ids.randomElement(using: &rng)!) { $0.allowedPrograms = programs }
            case 3, 4:
                if let id = ids.randomElement(using: &rng) { try copies[side].setPassword(id, "pw-\(seed)-\(counter)") }
            default:
                try copies[side].add("new-\(seed)-\(counter)")
            }
        }
        return (b.contents, copies[0].contents, copies[1].contents)
    }

    @Test(arguments: 1 ... 200) func generatedCopiesMergeCommutativelyIdempotentlyAndKeepEveryPassword(seed: UInt64)
        throws
    {
        let (b, o, t) = try Self.generated(seed: seed)
        let merged = try merge(b, o, t)
        let snapshot = Snapshot(merged)
        // Commutative, with and without the ancestor.
        #expect(snapshot == Snapshot(try merge(b, t, o)), "seed \(seed)")
        #expect(Snapshot(try merge(nil, o, t)) == Snapshot(try merge(nil, t, o)), "seed \(seed)")
        // Idempotent: merging a copy with itself, or the result again with either input.
        #expect(Snapshot(try merge(b, o, o)) == Snapshot(o), "seed \(seed)")
        #expect(Snapshot(try merge(merged, merged, merged)) == snapshot, "seed \(seed)")
        #expect(Snapshot(try merge(o, merged, o)) == snapshot, "seed \(seed)")
        #expect(Snapshot(try merge(t, merged, t)) == snapshot, "seed \(seed)")
        // Every password either copy holds for a credential that is still there is current or in its history.
        let inputs = [Snapshot(b), Snapshot(o), Snapshot(t)]
        for id in snapshot.credentials.keys {
            let everSaved = inputs.reduce(into: Set<String>()) { $0.formUnion($1.passwords(of: id)) }
            #expect(everSaved.isSubset(of: snapshot.passwords(of: id)), "seed \(seed)")
        }
        // A credential changed on one side since the ancestor is never removed by the other side.
        for side in [Snapshot(o), Snapshot(t)] {
            for (id, entry) in side.credentials where Snapshot(b).credentials[id] != entry {
                #expect(snapshot.credentials[id] != nil, "seed \(seed): an edit lost to a removal")
            }
        }
        // Nothing appears twice, and nothing is both a credential and a tombstone.
        #expect(Set(merged.credentials.map(\.id)).count == merged.credentials.count)
        #expect(Set(merged.credentials.map(\.id)).isDisjoint(with: merged.tombstones.map(\.id)))
        // It survives the payload codec (one record per id).
        let decoded = try PayloadCodec.decode(try PayloadCodec.encode(merged), path: "merged")
        #expect(Snapshot(decoded) == snapshot)
    }

    @Test(arguments: 1 ... 60) func threeCopiesMergedInAnyOrderAgree(seed: UInt64) throws {
        // Without ancestors (conflict copies), the merge is a join: any order, same contents.
        let (_, a, b) = try Self.generated(seed: seed)
        let (_, c, _) = try Self.generated(seed: seed &+ 1000)
        let left = try merge(nil, try merge(nil, a, b), c)
        let right = try merge(nil, a, try merge(nil, b, c))
        let other = try merge(nil, try merge(nil, c, a), b)
        #expect(Snapshot(left) == Snapshot(right), "seed \(seed)")
        #expect(Snapshot(left) == Snapshot(other), "seed \(seed)")
    }
}
