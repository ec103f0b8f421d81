import FoundationEssentials
import Glibc
import ServiceMatching
import Platform

// Reconciling two copies of one vault that changed apart: git's three-way merge (a common
// ancestor BASE, and OURS and THEIRS), or a conflict copy a file-sync service left beside the vault
// (no ancestor at all).
//
// This is a different problem from `ChangeReplay`. There one process knows exactly which changes
// it made and replays them onto the newer file. Here there are only states: two (or three) whole
// contents, and nobody knows which commands produced them. So the merge works per credential id
// and per field, and has to be a function of the states alone, with these properties:
//
// - Commutative: merge(B, X, Y) has the same contents as merge(B, Y, X). Every choice below is
//   symmetric: "the later one", with ties broken by comparing the values themselves, never by
//   which side is "ours".
// - Idempotent: merge(B, X, X) = X, and merging a result again with either input changes nothing.
// - Nothing a user saved is lost: a password that loses goes into the winner's history.
//
// The rules, per credential id:
//
// - On one side only (added there, or the other side never had it): kept.
// - Removed on one side (a tombstone), present on the other: the removal wins, unless the other
//   side changed the credential after the common ancestor, or after the version the removal
//   removed (the tombstone records that version's stamp, `Tombstone.seen`), or its last change is
//   later than the removal. An edit the remover never saw is kept (removing it again is one
//   command; a password typed on another machine cannot be recovered), and the tombstone goes.
//   The version stamp is what makes this hold without an ancestor and whatever the clocks say:
//   a change made after that version is stamped after it even on a machine hours slow. Removed
//   on both: one tombstone, the later time (then the one that saw more).
// - Present on both and different: each field (title, username, notes, rank, services, the TOTP
//   key, the named fields taken as one list with their histories — the list
//   `CredentialFieldRule.all`) is merged on its own against the ancestor: changed on one side only,
//   that side's value; changed on both (or no ancestor), the value of the side changed later.
//   So edits of different fields on two machines both stay.
// - The password: the one set later is current; every other one — the loser's current password
//   and both histories — ends in the history (a set union, ordered by time, each password once,
//   at its latest replacement). No password is dropped.
// - The equivalent domains: a three-way set merge of the groups (a group added on either side
//   stays, one removed on either side goes), then overlapping groups are joined.
//
// "Later" needs an order that survives machines whose clocks disagree. Pure wall-clock
// last-writer-wins would let a laptop whose clock is an hour slow lose every edit it makes to a
// credential that a correct machine touched in that hour, even edits made after it had pulled
// that machine's change. Two things prevent it:
//
// 1. Causality comes from the ancestor, not the clock. Git hands the merge the common ancestor,
//    so a field changed on one side only is taken from that side whatever its time says: a
//    change made after seeing the other machine's change is, relative to the ancestor, the only
//    change. Clocks decide only between changes made without seeing each other.
// 2. The times themselves follow causality: every change to a credential is stamped
//    max(now, its previous stamp + 1 ms) (a hybrid logical clock per credential, see
//    `Vault.stamp(after:)`). A change made after seeing another is therefore always later, even
//    on a machine whose clock is behind, and so is a password set after another; this is what
//    makes the order right also without an ancestor (a conflict copy).
//
// Between truly concurrent changes the order is (stamp, then the values compared), which is a
// total order, so every machine picks the same winner; and because the loser's password goes to
// history, the choice can never cost a password. The history union is a set union of
// passwords, each with the maximum of its replacement times, associative as well as
// commutative, so three machines merging in any order end with the same histories.

/// What a reconciliation did, for the one line a merge or a sync prints.
public struct ReconcileSummary: Equatable, Sendable, Codable, CustomStringConvertible {
    /// Credentials only the other side had (added there).
    public var added = 0
    /// Credentials both had, where the other side's changes were taken (in part or whole).
    public var changed = 0
    /// Credentials the other side removed.
    public var removed = 0
    /// Credentials changed on both sides since the ancestor: merged field by field.
    public var conflicts = 0
    /// Passwords that lost to a later one and were kept in the history.
    public var passwordsKept = 0
    /// Removals not applied because the credential was edited meanwhile.
    public var editsKeptOverRemoval = 0

    public init() {}

    public var description: String {
        var parts = ["\(added) added", "\(changed) changed", "\(removed) removed"]
        if conflicts > 0 { parts.append("\(conflicts) changed on both sides") }
        if passwordsKept > 0 {
            parts.append("\(passwordsKept) password\(passwordsKept == 1 ? "" : "s") kept in history")
        }
        if editsKeptOverRemoval > 0 {
            parts.append(
                "\(editsKeptOverRemoval) removal\(editsKeptOverRemoval == 1 ? "" : "s") undone by a later edit")
        }
        return parts.joined(separator: ", ")
    }
}

public enum VaultReconcile {
    /// `ours` and `theirs` reconciled (see above), with `base` their common ancestor when there
    /// is one. The result has its own arena; the summary counts what came from `theirs`.
    public static func reconcile(base: VaultContents?, ours: VaultContents, theirs: VaultContents) throws -> (
        VaultContents, ReconcileSummary
    ) {
        var summary = ReconcileSummary()
        var merged = VaultContents(secrets: try SecretArena())
        let baseCredentials = base.map(index) ?? [:]
        let ourCredentials = index(ours)
        let theirCredentials = index(theirs)
        let ourTombstones = Dictionary(ours.tombstones.map { ($0.id, $0) }, uniquingKeysWith: later)
        let theirTombstones = Dictionary(theirs.tombstones.map { ($0.id, $0) }, uniquingKeysWith: later)

        // A stable order: ours first as they are, then what only theirs has.
        var ids: [UUID] = []
        var seen = Set<UUID>()
        for id in ours.credentials.map(\.id) + ours.tombstones.map(\.id) + theirs.credentials.map(\.id)
            + theirs.tombstones.map(\.id)
        where seen.insert(id).inserted { ids.append(id) }

        for id in ids {
            let o = ourCredentials[id].map { Side(credential: $0, arena: ours.secrets) }
            let t = theirCredentials[id].map { Side(credential: $0, arena: theirs.secrets) }
            let b = baseCredentials[id].map { Side(credential: $0, arena: base?.secrets ?? ours.secrets) }
            let tombstone = [ourTombstones[id], theirTombstones[id]].compactMap { $0 }
                .reduce(nil as Tombstone?) { found, next in found.map { later($0, next) } ?? next }
            switch (o, t) {
            case let (o?, t?):
                let (credential, outcome) = try mergeCredential(base: b, o, t, into: merged.secrets)
                if outcome.theirsTaken { summary.changed += 1 }
                if outcome.conflict { summary.conflicts += 1 }
                summary.passwordsKept += outcome.passwordsKept
                merged.credentials.append(credential)
            case let (present?, nil), let (nil, present?):
                let isOurs = o != nil
                if let tombstone, !survives(present, removal: tombstone, base: b) {
                    merged.tombstones.append(tombstone)
                    if isOurs { summary.removed += 1 }
                    continue
                }
                var credential = try copy(present, into: merged.secrets)
                if let tombstone {
                    // Kept over a removal: stamped after it, so that any later merge, with or
                    // without an ancestor, keeps it too.
                    credential.modified = max(credential.modified, tombstone.deleted.advanced())
                    summary.editsKeptOverRemoval += 1
                } else if !isOurs {
                    summary.added += 1
                }
                merged.credentials.append(credential)
            case (nil, nil):
                if let tombstone { merged.tombstones.append(tombstone) }
            }
        }
        merged.equivalents = mergeEquivalents(base: base?.equivalents, ours.equivalents, theirs.equivalents)
        return (merged, summary)
    }

    // MARK: One credential

    struct Outcome {
        var theirsTaken = false
        var conflict = false
        var passwordsKept = 0
    }

    typealias Side = CredentialCopy

    static func mergeCredential(base: Side?, _ o: Side, _ t: Side, into arena: SecretArena) throws -> (
        Credential, Outcome
    ) {
        var outcome = Outcome()
        if identical(o, t) { return (try copy(o, into: arena), outcome) }
        // A side stamped before the ancestor is an older copy replayed (a backup restored and
        // committed, a sync server serving an old file): where it differs from the ancestor it
        // has the values the ancestor replaced, not edits, and it reverts nothing.
        let ourReplay = base.map { replays(o, $0) } ?? false
        let theirReplay = base.map { replays(t, $0) } ?? false
        let ourChange = base.map { !identical($0, o) && !ourReplay } ?? true
        let theirChange = base.map { !identical($0, t) && !theirReplay } ?? true
        outcome.conflict = ourChange && theirChange && base != nil
        // The side whose last change is later; equal stamps: the one whose values compare greater.
        let theirsLater = !isLater(o, t)
        var credential = try copy(o, into: arena)
        for rule in CredentialFieldRule.all {
            let takeTheirs: Bool
            if let base {
                let ourFieldChange = !ourReplay && !rule.equal(base, o)
                let theirFieldChange = !theirReplay && !rule.equal(base, t)
                switch (ourFieldChange, theirFieldChange) {
                case (true, false): takeTheirs = false
                case (false, true): takeTheirs = true
                case (true, true): takeTheirs = theirsLater
                // Neither side edited it: the one that is not a replay holds the ancestor's value
                // (or a later one); both replays: the later stamp.
                case (false, false): takeTheirs = ourReplay == theirReplay ? theirsLater : ourReplay
                }
            } else {
                takeTheirs = theirsLater
            }
            guard takeTheirs, !rule.equal(o, t) else { continue }
            try rule.take(&credential, t, arena)
            outcome.theirsTaken = true
        }
        credential.modified = max(o.credential.modified, t.credential.modified)
        if try keepSecretFields(of: [o, t], in: &credential, arena: arena) { outcome.theirsTaken = true }
        if try keepOneTimeKeys(of: [o, t], in: &credential, arena: arena) { outcome.theirsTaken = true }

        // The password: the later one is current, everything else is history.
        let ourSecretWins = isSecretLater(o, t)
        let (secretWinner, secretLoser) = ourSecretWins ? (o, t) : (t, o)
        credential.secret = try store(secretWinner.credential.secret, from: secretWinner.arena, into: arena)
        var history: [(PreviousSecret, SecretArena)] =
            o.credential.history.map { ($0, o.arena) } + t.credential.history.map { ($0, t.arena) }
        let loserCurrent = PreviousSecret(
            secret: secretLoser.credential.secret, replaced: secretLoser.credential.secretSet)
        let sameCurrent =
            secretLoser.credential.secretSet == secretWinner.credential.secretSet
            && secretsEqual(
                secretLoser.credential.secret, secretLoser.arena, secretWinner.credential.secret, secretWinner.arena)
        if !sameCurrent {
            history.append((loserCurrent, secretLoser.arena))
            if !contains(history.dropLast(), loserCurrent, secretLoser.arena) { outcome.passwordsKept += 1 }
        }
        if !ourSecretWins, !sameCurrent { outcome.theirsTaken = true }
        // A set union of passwords, each at the last time it was replaced, in a canonical order.
        // Two machines that replaced the same password each record it with their own time; kept
        // as pairs, one password was listed once per machine and per merge (three times after
        // two merges). The latest time is kept: `secretSet` (the latest replacement) stays what
        // it was, and taking a maximum per password is as associative as the union was.
        var union: [(PreviousSecret, SecretArena)] = []
        for entry in history.sorted(by: { $0.0.replaced > $1.0.replaced })
        where !union.contains(where: { secretsEqual($0.0.secret, $0.1, entry.0.secret, entry.1) }) {
            union.append(entry)
        }
        union.sort { a, b in
            if a.0.replaced != b.0.replaced { return a.0.replaced < b.0.replaced }
            return compareSecrets(a.0.secret, a.1, b.0.secret, b.1) < 0
        }
        if union.count != o.credential.history.count { outcome.theirsTaken = true }
        credential.history = try union.map {
            PreviousSecret(secret: try store($0.0.secret, from: $0.1, into: arena), replaced: $0.0.replaced)
        }
        return (credential, outcome)
    }

    /// Whether `side` is older than the ancestor: its last change is stamped before the
    /// ancestor's, which no copy descending from the ancestor can be (every change is stamped
    /// after the credential's previous one), so it is a replay of a state from before it.
    static func replays(_ side: Side, _ base: Side) -> Bool {
        side.credential.modified < base.credential.modified
    }

    /// Secret named fields keep history like the password: the value of a field of the same name
    /// on either side that is not the result's current one (the side that lost the merge, or
    /// changed it concurrently) joins that field's history, stamped with the side's last change,
    /// together with both sides' histories — a set union of values, each at its latest time, in a
    /// canonical order, so the result is the same whichever side merges first. Returns whether
    /// anything was added to `credential` (what the summary counts as taken).
    static func keepSecretFields(of sides: [Side], in credential: inout Credential, arena: SecretArena) throws -> Bool {
        var added = false
        for index in credential.fields.indices {
            guard case .secret(let current) = credential.fields[index].value else { continue }
            let name = credential.fields[index].name
            var candidates: [(PreviousSecret, SecretArena)] = []
            for side in sides {
                guard let field = side.credential.fields.first(where: { $0.isNamed(name) }),
                    case .secret(let value) = field.value
                else { continue }
                candidates += field.history.map { ($0, side.arena) }
                candidates.append((PreviousSecret(secret: value, replaced: side.credential.modified), side.arena))
            }
            var union: [(PreviousSecret, SecretArena)] = []
            for entry in candidates.sorted(by: { $0.0.replaced > $1.0.replaced })
            where !secretsEqual(entry.0.secret, entry.1, current, arena)
                && !union.contains(where: { secretsEqual($0.0.secret, $0.1, entry.0.secret, entry.1) })
            {
                union.append(entry)
            }
            union.sort { a, b in
                if a.0.replaced != b.0.replaced { return a.0.replaced < b.0.replaced }
                return compareSecrets(a.0.secret, a.1, b.0.secret, b.1) < 0
            }
            if union.count != credential.fields[index].history.count { added = true }
            credential.fields[index].history = try union.map {
                PreviousSecret(secret: try store($0.0.secret, from: $0.1, into: arena), replaced: $0.0.replaced)
            }
        }
        return added
    }

    /// Authenticator keys keep history like the password: both sides' previous keys, and each
    /// side's current key that is not the result's, join `totpHistory` (the latter stamped with
    /// the side's last change) — a set union of keys, each at its latest time, in a canonical
    /// order. Returns whether anything was added to `credential`.
    static func keepOneTimeKeys(of sides: [Side], in credential: inout Credential, arena: SecretArena) throws -> Bool {
        var candidates: [(PreviousOneTimeKey, SecretArena)] = []
        for side in sides {
            candidates += side.credential.totpHistory.map { ($0, side.arena) }
            if let key = side.credential.totp {
                candidates.append((PreviousOneTimeKey(key: key, replaced: side.credential.modified), side.arena))
            }
        }
        func same(_ a: OneTimeKey, _ arenaA: SecretArena, _ b: OneTimeKey, _ arenaB: SecretArena) -> Bool {
            a.parameters == b.parameters && secretsEqual(a.key, arenaA, b.key, arenaB)
        }
        let current = credential.totp
        var union: [(PreviousOneTimeKey, SecretArena)] = []
        for entry in candidates.sorted(by: { $0.0.replaced > $1.0.replaced }) {
            if let current, same(current, arena, entry.0.key, entry.1) { continue }
            if union.contains(where: { same($0.0.key, $0.1, entry.0.key, entry.1) }) { continue }
            union.append(entry)
        }
        union.sort { a, b in
            if a.0.replaced != b.0.replaced { return a.0.replaced < b.0.replaced }
            return compareSecrets(a.0.key.key, a.1, b.0.key.key, b.1) < 0
        }
        let added = union.count != credential.totpHistory.count
        credential.totpHistory = try union.map {
            PreviousOneTimeKey(
                key: OneTimeKey(parameters: $0.0.key.parameters, key: try store($0.0.key.key, from: $0.1, into: arena)),
                replaced: $0.0.replaced)
        }
        return added
    }

    /// Whether a credential present on one side outlives the other side's removal: it was changed
    /// since the ancestor or since the version the removal removed (the remover never saw that
    /// change), or its last change is later than the removal.
    static func survives(_ side: Side, removal: Tombstone, base: Side?) -> Bool {
        if side.credential.modified > removal.deleted { return true }
        // Changed after the version the remover removed: the stamps follow causality whatever
        // the clocks say, so this copy holds an edit (a password, perhaps) the remover never saw
        // — also without an ancestor, and when its machine ran hours slow.
        if let seen = removal.seen, side.credential.modified > seen { return true }
        guard let base else { return false }
        return !identical(base, side)
    }

    // MARK: Equivalent domains

    /// A three-way set merge of the groups, overlapping groups then joined.
    static func mergeEquivalents(base: EquivalentDomains?, _ o: EquivalentDomains, _ t: EquivalentDomains)
        -> EquivalentDomains
    {
        if o == t { return o }
        let baseGroups = Set(base?.groups ?? [])
        let ourGroups = Set(o.groups)
        let theirGroups = Set(t.groups)
        let kept = ourGroups.intersection(theirGroups)
            .union(ourGroups.subtracting(baseGroups))
            .union(theirGroups.subtracting(baseGroups))
        let modified = max(o.modified, t.modified)
        var result = EquivalentDomains(groups: [], modified: modified)
        for group in kept.sorted(by: { $0.lexicographicallyPrecedes($1) }) { result.add(group, at: modified) }
        return result
    }

    // MARK: Comparing

    static func identical(_ a: Side, _ b: Side) -> Bool {
        CredentialFieldRule.all.allSatisfy { $0.equal(a, b) }
            && a.credential.modified == b.credential.modified
            && secretsEqual(a.credential.secret, a.arena, b.credential.secret, b.arena)
            && a.credential.history.count == b.credential.history.count
            && a.credential.totpHistory.count == b.credential.totpHistory.count
            && zip(a.credential.history, b.credential.history).allSatisfy {
                $0.replaced == $1.replaced && secretsEqual($0.secret, a.arena, $1.secret, b.arena)
            }
    }

    /// Whether `a` changed later than `b`; equal stamps: whether its fields compare greater, so
    /// that exactly one of isLater(a, b) and isLater(b, a) holds unless they are equal.
    static func isLater(_ a: Side, _ b: Side) -> Bool {
        if a.credential.modified != b.credential.modified { return a.credential.modified > b.credential.modified }
        for rule in CredentialFieldRule.all {
            let order = rule.compare(a, b)
            if order != 0 { return order > 0 }
        }
        return compareSecrets(a.credential.secret, a.arena, b.credential.secret, b.arena) >= 0
    }

    /// Whether `a`'s password was set later than `b`'s; equal times: the greater password bytes.
    static func isSecretLater(_ a: Side, _ b: Side) -> Bool {
        let (x, y) = (a.credential.secretSet, b.credential.secretSet)
        if x != y { return x > y }
        return compareSecrets(a.credential.secret, a.arena, b.credential.secret, b.arena) >= 0
    }

    static func contains<S: Sequence>(_ list: S, _ entry: PreviousSecret, _ arena: SecretArena) -> Bool
    where S.Element == (PreviousSecret, SecretArena) {
        list.contains { $0.0.replaced == entry.replaced && secretsEqual($0.0.secret, $0.1, entry.secret, arena) }
    }

    static func secretsEqual(_ a: SecretReference, _ arenaA: SecretArena, _ b: SecretReference, _ arenaB: SecretArena)
        -> Bool
    {
        a.count == b.count && compareSecrets(a, arenaA, b, arenaB) == 0
    }

    /// Lexicographic order of two secrets' bytes: negative, zero or positive.
    static func compareSecrets(_ a: SecretReference, _ arenaA: SecretArena, _ b: SecretReference, _ arenaB: SecretArena)
        -> Int
    {
        arenaA.withBytes(of: a) { x in
            arenaB.withBytes(of: b) { y in
                let common = min(x.count, y.count)
                if common > 0, let px = x.baseAddress, let py = y.baseAddress {
                    let order = memcmp(px, py, common)
                    if order != 0 { return Int(order) }
                }
                return x.count - y.count
            }
        }
    }

    // MARK: Copying into the result's arena

    static func copy(_ side: Side, into arena: SecretArena) throws -> Credential {
        var credential = side.credential
        credential.secret = try store(side.credential.secret, from: side.arena, into: arena)
        for i in credential.history.indices {
            credential.history[i].secret = try store(credential.history[i].secret, from: side.arena, into: arena)
        }
        if let totp = credential.totp { credential.totp?.key = try store(totp.key, from: side.arena, into: arena) }
        for i in credential.totpHistory.indices {
            credential.totpHistory[i].key.key = try store(
                credential.totpHistory[i].key.key, from: side.arena, into: arena)
        }
        credential.fields = try NamedField.copied(side.credential.fields, from: side.arena, into: arena)
        return credential
    }

    static func store(_ secret: SecretReference, from source: SecretArena, into arena: SecretArena) throws
        -> SecretReference
    {
        try source.withBytes(of: secret) { try arena.store($0) }
    }

    private static func index(_ contents: VaultContents) -> [UUID: Credential] {
        Dictionary(contents.credentials.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
    }

    /// The later removal; the same time: the one that saw more, so the choice is symmetric.
    private static func later(_ a: Tombstone, _ b: Tombstone) -> Tombstone {
        if a.deleted != b.deleted { return a.deleted > b.deleted ? a : b }
        let (x, y) = (a.seen?.millisecondsSince1970 ?? .min, b.seen?.millisecondsSince1970 ?? .min)
        return x >= y ? a : b
    }
}

extension Timestamp {
    /// One millisecond later: the least stamp that orders after this one.
    func advanced() -> Timestamp { Timestamp(millisecondsSince1970: millisecondsSince1970 &+ 1) }
}
