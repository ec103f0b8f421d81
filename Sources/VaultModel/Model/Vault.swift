import FoundationEssentials
import Glibc
import VaultCrypto
import ServiceMatching
import Platform

/// An open vault: its file's header, the data key, and the decrypted contents, with the edits a
/// user makes and the save that writes them back.
///
/// A `Vault` remembers the checksum of the file it was read from, and the changes made since.
/// When it saves and finds a different file on disk, another process saved in between; its
/// changes are replayed onto that version (see `ChangeReplay`) as long as both are under the same
/// key, and the save is refused otherwise, never overwriting what the other process wrote.
public final class Vault {
    public let path: String
    public private(set) var header: VaultHeader
    public private(set) var contents: VaultContents {
        didSet {
            indexing.withLock {
                indexedHosts = nil
                indexedUsernames = nil
            }
        }
    }
    /// `hostIndex`, once built for the credentials as they are; under `indexing`, since readers
    /// side by side (the agent's) may each be the first to ask for it.
    private var indexedHosts: HostIndex?
    /// `positions(ofUsername:)`'s table, likewise.
    private var indexedUsernames: [String: [Int]]?
    private let indexing = Lock()
    private var dataKey: SecureBytes
    /// The checksum of the file this vault matches on disk; nil until it is first saved.
    private var checksumOnDisk: [UInt8]?
    /// Where the file's journal ends (`VaultJournal`): what the next change is appended after.
    public private(set) var journal: JournalPosition

    /// What the last save appended to the journal; nil when it wrote a snapshot (or nothing was
    /// saved yet): what the identity store follows incrementally.
    public private(set) var lastAppended: AppendedChange?

    /// Which version of the vault this is, as last read or written.
    public var version: VaultVersion { VaultVersion(generation: header.generation, changes: journal.sequence) }
    /// The changes made since `contents` matched the file, for a merge at save time.
    private var pending: [VaultChange] = []

    /// Whether anything changed since the vault was read or last saved.
    public var hasUnsavedChanges: Bool { !pending.isEmpty }
    private let environment: VaultEnvironment

    private init(
        path: String, keys: consuming VaultKeys, contents: VaultContents,
        checksumOnDisk: [UInt8]?, journal: JournalPosition, environment: VaultEnvironment
    ) {
        self.path = path
        self.journal = journal
        self.header = keys.header
        self.dataKey = keys.dataKey
        self.contents = contents
        self.checksumOnDisk = checksumOnDisk
        self.environment = environment
    }

    /// A new, empty vault that `save()` will create at `path` (refusing if a file appears there).
    public static func create(
        at path: String, password: borrowing SecureBytes, parameters: KDFParameters,
        environment: VaultEnvironment = .standard
    ) throws -> Vault {
        let vaultID = try cryptoCall { () throws(VaultCryptoError) in try RandomBytes.make(16) }
        let keys = try VaultFormat.makeKeys(
            password: password, parameters: parameters, derivation: environment.derivation,
            vaultID: vaultID, generation: 0, floor: environment.writingFloor)
        let journal = VaultJournal.start(header: keys.header, checksum: [])
        return Vault(
            path: path, keys: keys, contents: try .empty(), checksumOnDisk: nil, journal: journal,
            environment: environment)
    }

    /// Opens the vault at `path` with the master password.
    public static func open(
        at path: String, password: borrowing SecureBytes, environment: VaultEnvironment = .standard
    ) throws -> Vault {
        let file = try VaultStorage.load(path)
        let unlocked = try VaultFormat.unlock(
            file, password: password, derivation: environment.derivation, bounds: environment.bounds, path: path)
        return Vault(
            path: path, keys: unlocked.keys, contents: unlocked.contents,
            checksumOnDisk: checksum(of: file), journal: unlocked.journal, environment: environment)
    }

    /// Another open vault, the same as this one (the same file, keys, contents, unsaved changes)
    /// in memory of its own: what the agent changes and saves while readers go on reading this
    /// one, then holds in its place (docs/agent.md). Costs a copy of the secrets (a memcpy of the
    /// arena) and of the credentials' array on the first change.
    public func copy() throws -> Vault {
        let key = try cryptoCall { () throws(VaultCryptoError) in
            try dataKey.withUnsafeBytes { bytes throws(VaultCryptoError) in try SecureBytes(copying: bytes) }
        }
        let copy = Vault(
            path: path, keys: VaultKeys(header: header, dataKey: key), contents: try contents.snapshot(),
            checksumOnDisk: checksumOnDisk, journal: journal, environment: environment)
        copy.pending = pending
        return copy
    }

    /// The data key this vault is open with, as a keyring for copies of it under the same key
    /// (an agent merging git's copies without asking for the master password).
    public func keyring() throws -> VaultKeyring {
        try VaultKeyring(header: header, dataKey: dataKey)
    }

    // MARK: Reading

    /// The credential whose id is `text`, or starts with it (at least 4 characters, unique).
    public func credential(id text: String) throws -> Credential {
        let wanted = text.lowercased()
        guard wanted.count >= 4 else {
            throw VaultError.invalidRequest("an id prefix needs at least 4 characters; '\(text)' is too short")
        }
        // Indices, not credentials: copying 10,000 credentials to compare their ids (two dozen
        // retains each) was four fifths of a `get --id` in the agent, by perf.
        let credentials = contents.credentials
        let prefix = IDPrefix(wanted)
        let found = prefix.map { prefix in credentials.indices.filter { prefix.matches(credentials[$0].id) } } ?? []
        switch found.count {
        case 1: return credentials[found[0]]
        case 0: throw VaultError.noMatch("no credential has an id starting with '\(text)'")
        default:
            let ids = found.prefix(5).map { credentials[$0].id.uuidString.lowercased() }.joined(separator: ", ")
            throw VaultError.invalidRequest(
                "'\(text)' matches \(found.count) credentials (\(ids)); give more of the id")
        }
    }

    /// Lends a secret's bytes; they must not be copied out of `body` into unprotected memory.
    public func withSecret<Result>(_ reference: SecretReference, _ body: (UnsafeRawBufferPointer) throws -> Result)
        rethrows -> Result
    {
        try contents.secrets.withBytes(of: reference, body)
    }

    // MARK: Editing

    /// Adds a credential; the secret is copied into the vault's protected arena.
    @discardableResult
    public func add(
        services: [ServiceIdentifier], username: String, secret: borrowing SecureBytes,
        title: String = "", notes: String = "", rank: Int32 = 0
    ) throws -> Credential {
        guard !services.isEmpty || !title.trimmingSpacesAndNewlines().isEmpty else {
            throw VaultError.invalidRequest(
                "a credential needs a service or a title (--title \"Home Wi-Fi\" for an item without a site)")
        }
        try Limits.checkSecret(byteCount: secret.count)
        let now = environment.clock.now()
        var credential = Credential(
            id: UUID(), title: title, services: services, username: username,
            secret: SecretReference(offset: 0, count: 0), notes: notes, rank: rank,
            created: now, modified: now)
        try Limits.check(credential)
        credential.secret = try contents.secrets.store(secret)
        // The lookups built for the credentials so far take the new one at the end, instead of
        // being dropped with the change and built again for all of them at the next question:
        // most of a second at 100,000 credentials, which the first `get` after each `add` paid.
        var kept = indexing.withLock { (hosts: indexedHosts.take(), usernames: indexedUsernames.take()) }
        contents.credentials.append(credential)
        let position = contents.credentials.count - 1
        if kept.hosts?.count == position { kept.hosts?.append(hosts: services.map(\.host)) } else { kept.hosts = nil }
        kept.usernames?[username, default: []].append(position)
        indexing.withLock {
            indexedHosts = kept.hosts
            indexedUsernames = kept.usernames
        }
        pending.append(.add(credential))
        return credential
    }

    /// Makes room for `count` more credentials before they are adopted one by one: the
    /// credentials and the pending changes then grow once, instead of doubling again and again,
    /// each time holding the old and the new array together (with 100,000 credentials, tens of
    /// megabytes at the import's peak: issue 23).
    public func reserveCapacity(forAdding count: Int) {
        contents.credentials.reserveCapacity(contents.credentials.count + count)
        pending.reserveCapacity(pending.count + count)
    }

    /// Adds a credential brought from elsewhere (an import) as it is, with its own times and id
    /// (a new one: looking for it among 10,000 others on each of 10,000 adds would be most of
    /// an import's time, and a UUID the importer just made is not among them):
    /// its password, history and authenticator key are read from `source`, the arena they are
    /// in, and copied into this vault's. Limits are checked as for any add.
    @discardableResult
    public func adopt(_ credential: Credential, secretsFrom source: SecretArena) throws -> Credential {
        guard credential.isNamed else { throw VaultError.invalidRequest("a credential needs a service or a title") }
        guard source !== contents.secrets else {
            throw VaultError.invalidRequest("a credential is adopted from another arena than the vault's own")
        }
        try Limits.check(credential)
        try Limits.checkSecret(byteCount: credential.secret.count)
        let copy = try credential.copyingSecrets(from: source, into: contents.secrets)
        contents.credentials.append(copy)
        pending.append(.add(copy))
        return copy
    }

    /// Applies `change` to the credential `id` and stamps it modified. `change` sets fields and
    /// services only (a new secret goes through `replaceSecret`): it is applied again, on the
    /// other version, when another process saved meanwhile, so it must say what to change, not
    /// copy a whole credential.
    public func update(_ id: UUID, _ change: @escaping (inout Credential) throws -> Void) throws {
        guard let index = contents.index(of: id) else {
            throw VaultError.noMatch("no credential with id \(id.uuidString.lowercased())")
        }
        var credential = contents.credentials[index]
        try change(&credential)
        guard credential.isNamed else {
            throw VaultError.invalidRequest(
                "a credential needs a service or a title: give it a title before removing its last service")
        }
        try Limits.check(credential)
        let now = stamp(after: contents.credentials[index])
        credential.secret = contents.credentials[index].secret
        credential.history = contents.credentials[index].history
        // Fields change through setField, which keeps a secret one's history.
        credential.fields = contents.credentials[index].fields
        credential.modified = now
        contents.credentials[index] = credential
        pending.append(.update(id, at: now, body: change))
    }

    /// Replaces a credential's secret, keeping the old one in its history.
    public func replaceSecret(of id: UUID, with secret: borrowing SecureBytes) throws {
        try Limits.checkSecret(byteCount: secret.count)
        guard let index = contents.index(of: id) else {
            throw VaultError.noMatch("no credential with id \(id.uuidString.lowercased())")
        }
        let reference = try contents.secrets.store(secret)
        let now = stamp(after: contents.credentials[index])
        contents.credentials[index].history.append(
            PreviousSecret(secret: contents.credentials[index].secret, replaced: now))
        contents.credentials[index].secret = reference
        contents.credentials[index].modified = now
        pending.append(.replaceSecret(id, reference, at: now))
    }

    /// Sets (or with nil removes) a credential's authenticator key; the key is copied into the
    /// arena. Like a new password, it is replayed onto another process's save.
    public func setOneTimeKey(of id: UUID, to parameters: OneTimeParameters?, key: borrowing SecureBytes) throws {
        guard let index = contents.index(of: id) else {
            throw VaultError.noMatch("no credential with id \(id.uuidString.lowercased())")
        }
        var totp: OneTimeKey?
        if let parameters {
            guard parameters.isValid, !key.isEmpty else {
                throw VaultError.invalidRequest("an authenticator key needs a key, 6 to 8 digits and a period")
            }
            try Limits.checkSecret(byteCount: key.count)
            totp = OneTimeKey(parameters: parameters, key: try contents.secrets.store(key))
        }
        // Stamped after the credential's last change, like every change (what merges rely on).
        let now = stamp(after: contents.credentials[index])
        contents.credentials[index].replaceOneTimeKey(with: totp, at: now)
        contents.credentials[index].modified = now
        pending.append(.setOneTimeKey(id, totp, at: now))
    }

    /// Sets the named field `name` of a credential (format 1.3): text, or a secret copied into the
    /// arena (`secret`, when `text` is nil). A secret value that replaces another goes to the
    /// field's history, as a replaced password does; a field changing between text and secret is
    /// one field with the new kind. Replayed onto another process's save.
    public func setField(of id: UUID, name: String, text: String?, secret: borrowing SecureBytes) throws {
        guard let index = contents.index(of: id) else {
            throw VaultError.noMatch("no credential with id \(id.uuidString.lowercased())")
        }
        let value: NamedField.Value
        if let text {
            value = .text(text)
        } else {
            try Limits.checkSecret(byteCount: secret.count)
            value = .secret(try contents.secrets.store(secret))
        }
        let now = stamp(after: contents.credentials[index])
        var credential = contents.credentials[index]
        credential.set(NamedField(name: name, value: value), at: now)
        try Limits.check(credential)
        credential.modified = now
        contents.credentials[index] = credential
        pending.append(.setField(id, name: name, value, at: now))
    }

    /// Removes the named field `name` of a credential (its history with it).
    public func removeField(of id: UUID, name: String) throws {
        guard let index = contents.index(of: id) else {
            throw VaultError.noMatch("no credential with id \(id.uuidString.lowercased())")
        }
        guard contents.credentials[index].field(named: name) != nil else {
            throw VaultError.noMatch("\(contents.credentials[index].displayTitle) has no field '\(name)'")
        }
        let now = stamp(after: contents.credentials[index])
        contents.credentials[index].fields.removeAll { $0.isNamed(name) }
        contents.credentials[index].modified = now
        pending.append(.setField(id, name: name, nil, at: now))
    }

    /// The one-time code of `credential` now (by the vault's clock), and the seconds it stays valid.
    public func oneTimeCode(of credential: Credential) throws -> OneTimeCode.Timed {
        guard let totp = credential.totp else {
            throw VaultError.noMatch(
                "\(credential.displayTitle) has no authenticator key; add one with pwtui edit \(credential.id.uuidString.lowercased().prefix(8)) --totp"
            )
        }
        let seconds = environment.clock.now().millisecondsSince1970 / 1000
        return try cryptoCall { () throws(VaultCryptoError) in
            try contents.secrets.withBytes(of: totp.key) { (key) throws(VaultCryptoError) in
                try OneTimeCode.totp(
                    key: key, at: seconds, period: totp.parameters.period, digits: totp.parameters.digits,
                    algorithm: totp.parameters.algorithm)
            }
        }
    }

    /// Makes a previous secret current again: `number` counts as `Credential.previousSecrets`
    /// lists them (1 is the one replaced last). The current secret goes to the history like any
    /// replaced one, so a restore is itself undone by restoring 1. The chosen secret is copied
    /// into new protected memory before it is stored, because the arena it lives in may grow
    /// (and move) while storing it.
    public func restoreSecret(of id: UUID, previous number: Int) throws {
        guard let credential = contents.credential(withID: id) else {
            throw VaultError.noMatch("no credential with id \(id.uuidString.lowercased())")
        }
        let previous = credential.previousSecrets
        guard previous.indices.contains(number - 1) else {
            throw VaultError.invalidRequest(
                previous.isEmpty
                    ? "\(credential.displayTitle) has no previous password to restore"
                    : "\(credential.displayTitle) has previous passwords 1 to \(previous.count); there is no \(number)")
        }
        var secret = try cryptoCall { () throws(VaultCryptoError) in
            try SecureBytes(capacity: previous[number - 1].secret.count)
        }
        try withSecret(previous[number - 1].secret) { bytes in
            try cryptoCall { () throws(VaultCryptoError) in try secret.append(contentsOf: bytes) }
        }
        try replaceSecret(of: id, with: secret)
    }

    /// Replaces the equivalent-domain groups.
    public func updateEquivalents(_ change: @escaping (inout EquivalentDomains, Timestamp) -> Void) {
        let now = environment.clock.now()
        change(&contents.equivalents, now)
        pending.append(.equivalents(at: now, body: change))
    }

    /// Deletes a credential, leaving a tombstone.
    public func remove(_ id: UUID) throws {
        guard let index = contents.index(of: id) else {
            throw VaultError.noMatch("no credential with id \(id.uuidString.lowercased())")
        }
        let now = stamp(after: contents.credentials[index])
        let seen = contents.credentials[index].modified
        contents.credentials.remove(at: index)
        contents.tombstones.append(Tombstone(id: id, deleted: now, seen: seen))
        pending.append(.remove(id, at: now))
    }

    /// The time of a change to `credential`: now, but always after its last change, so that a
    /// change made after seeing another is ordered after it even on a machine whose clock is
    /// behind (a hybrid logical clock per credential; see `VaultReconcile`).
    private func stamp(after credential: Credential) -> Timestamp {
        max(environment.clock.now(), credential.modified.advanced())
    }

    /// Which credentials may match a request, looked up rather than asked one by one (see
    /// `HostIndex`): built at the first ranking after a change to the credentials, then kept.
    public var hostIndex: HostIndex {
        indexing.withLock {
            if let indexedHosts { return indexedHosts }
            let index = HostIndex(hosts: contents.credentials.map { $0.services.map(\.host) })
            indexedHosts = index
            return index
        }
    }

    /// The positions, ascending, of the credentials whose username is `username`: what `add`
    /// asks to find a duplicate. With `keepingTable` (a vault that stays open and is asked again,
    /// the agent's), looked up in a table built at the first question after a change and kept
    /// through an `add` (see above), instead of reading every credential each time: at 100,000
    /// credentials that read is memory-bound, 20 MB of credentials for 16 bytes of each, and was
    /// half of what the agent did for an `add` (perf). A command that asks once reads them once.
    public func positions(ofUsername username: String, keepingTable: Bool = false) -> [Int] {
        indexing.withLock {
            if let indexedUsernames { return indexedUsernames[username] ?? [] }
            let all = contents.credentials
            guard keepingTable else { return all.indices.filter { all[$0].username == username } }
            var table: [String: [Int]] = [:]
            for position in contents.credentials.indices {
                table[contents.credentials[position].username, default: []].append(position)
            }
            indexedUsernames = table
            return table[username] ?? []
        }
    }

    // MARK: Saving

    /// Writes the changes: appended to the file's journal as one record when it can be
    /// (`VaultJournal`), otherwise as a new snapshot with the save protocol (see `VaultStorage`).
    /// `lockHeld`: the caller holds the save lock (`VaultStorage.whileLocked`), waited for before
    /// anything of its own was locked: the agent, whose turns must not wait for another
    /// process's save.
    public func save(lockHeld: Bool = false) throws {
        if try appendChanges(lockHeld: lockHeld) { return }
        try save(backup: .keepPrevious, lockHeld: lockHeld)
    }

    /// Writes everything as a new snapshot, the journal folded in: what a save does by itself
    /// when the journal has grown, asked for now.
    public func compact(lockHeld: Bool = false) throws {
        try save(backup: .keepPrevious, lockHeld: lockHeld)
    }

    /// The journal may grow to this share of the snapshot (and at least `journalFloor` bytes)
    /// before a save writes a new snapshot instead: a write then costs a record, and now and then
    /// a snapshot, which over the records it replaces costs each of them a constant share.
    /// Opening replays at most this much beyond the snapshot.
    static let compactionShare = 4
    static let journalFloor = 64 * 1024

    /// The bytes the journal may still take before a save writes a snapshot instead; 0 when the
    /// next save writes one anyway (a vault of an older format, or not yet saved).
    public var journalRoom: Int {
        guard header.isCurrentFormat, header.minorVersion == VaultHeader.currentMinorVersion,
            let onDisk = checksumOnDisk, (try? header.checksum) == onDisk
        else { return 0 }
        let snapshotEnd = VaultJournal.snapshotEnd(of: header)
        let bound = max(Self.journalFloor, (snapshotEnd - VaultHeader.byteCount) / Self.compactionShare)
        return max(0, bound - (journal.end - snapshotEnd))
    }

    /// The pending changes appended to the journal as one record, when the file is still the one
    /// this vault read or last wrote, in the current format, and the record leaves the journal
    /// within its bound. False when a whole save must be done instead (nothing written then, the
    /// changes still pending): `save` then writes a snapshot.
    public func appendChanges(lockHeld: Bool = false) throws -> Bool {
        let room = journalRoom
        guard !pending.isEmpty, room > 0, let onDisk = checksumOnDisk else { return false }
        let change = AppendedChange(pending, after: version)
        let record = try JournalRecord.encode(change, in: contents)
        guard VaultJournal.frameOverhead + VaultJournal.sealedOverhead + record.count <= room else { return false }
        let (frame, next) = try VaultJournal.seal(record, vaultID: header.vaultID, dataKey: dataKey, after: journal)
        let vaultID = header.vaultID
        let previous = journal.head
        let readBackPlaintext = try SecretArena(capacity: record.count)
        let appended = try VaultStorage.append(frame, to: path, after: journal, snapshot: onDisk, lockHeld: lockHeld) {
            readBack in
            // Opened as a reader will open it: what the disk holds is the record, under this key.
            try VaultJournal.open(
                readBack, into: readBackPlaintext, vaultID: vaultID, previous: previous, dataKey: dataKey
            ) {
                VaultError.io(path: path, operation: "verifying", errno: EIO)
            }
        }
        guard appended else { return false }
        journal = next
        pending = []
        lastAppended = change
        return true
    }

    /// Re-encrypts everything under a new salt, key-encryption key and data key, and removes
    /// every file that still opens with the old password (`.bak`, stale temporaries). Without new
    /// `parameters` the file's are kept, raised to the writing floor: a vault made cheaper than
    /// that (by an older version, or a test) comes out of a password change at the floor.
    public func changePassword(to newPassword: borrowing SecureBytes, parameters: KDFParameters? = nil) throws {
        var keys = try VaultFormat.makeKeys(
            password: newPassword, parameters: parameters ?? header.kdf.raised(to: environment.writingFloor),
            derivation: environment.derivation, vaultID: header.vaultID, generation: header.generation,
            floor: environment.writingFloor)
        let oldHeader = header
        header = keys.header
        swap(&dataKey, &keys.dataKey)
        do {
            // A merge would have to read the other file with the old key; a password change is
            // rare enough to simply refuse when someone else saved in between.
            try save(backup: .removeAll, replayIfChanged: false)
        } catch let error as VaultError where error.isSavedNotDurable {
            throw error  // the new password is in force: nothing to restore
        } catch {
            header = oldHeader
            swap(&dataKey, &keys.dataKey)
            throw error
        }
    }

    private func save(backup: VaultStorage.Backup, replayIfChanged: Bool = true, lockHeld: Bool = false) throws {
        guard header.minorVersion <= VaultHeader.currentMinorVersion else {
            throw VaultError.unsupported(
                path: path,
                reason:
                    "it was written by a newer pwtui (format \(header.majorVersion).\(header.minorVersion)); it can be read but not changed here"
            )
        }
        // The format version is the header's: unlocking brought an older vault's up to this
        // pwtui's (re-wrapping its key, which the version is bound to), so an older reader that
        // would skip the newer records refuses to save over them. A version read back from a file
        // another pwtui saved meanwhile is kept as it is: changing it here would break the key.
        var written = header
        var merged: VaultContents?
        do {
            try VaultStorage.commit(
                path: path, backup: backup, lockHeld: lockHeld,
                produce: { current in
                    var base = contents
                    if let current {
                        // Another process saved: a new snapshot, or records after this one.
                        if Self.checksum(of: current) != checksumOnDisk || current.count != journal.fileSize {
                            guard replayIfChanged else {
                                throw VaultError.conflict(
                                    path: path, reason: "another process saved it meanwhile; try again")
                            }
                            base = try replayed(onto: current)
                            merged = base
                        }
                    } else if checksumOnDisk != nil {
                        throw VaultError.conflict(
                            path: path, reason: "the vault file was removed; put it back, or restore it from its .bak")
                    }
                    written.generation = max(written.generation, header.generation) + 1
                    return try VaultFormat.sealImage(base, header: &written, dataKey: dataKey)
                },
                verify: { image in
                    // The image is the file's bytes (the save protocol compared them): decrypted in
                    // place, it says what the file holds without a second copy of the payload.
                    let count = try VaultFormat.credentialCount(
                        decryptingInPlace: &image, header: written, dataKey: dataKey, path: path)
                    guard count == (merged ?? contents).credentials.count else {
                        throw VaultError.io(path: path, operation: "verifying", errno: EIO)
                    }
                })
        } catch VaultError.savedNotDurable(let file, let operation, let code) {
            // The rename happened: the new file is the vault now, and this holder must match it.
            try adoptSaved(written, merged: merged)
            throw VaultError.savedNotDurable(path: file, operation: operation, errno: code)
        }
        try adoptSaved(written, merged: merged)
    }

    private func adoptSaved(_ written: VaultHeader, merged: VaultContents?) throws {
        if let merged { contents = merged }
        pending = []
        header = written
        let checksum = try header.checksum
        checksumOnDisk = checksum
        journal = VaultJournal.start(header: header, checksum: checksum)
        lastAppended = nil
    }

    /// The file another process saved, with this vault's changes replayed onto it (see
    /// `ChangeReplay`), when both use the same keys; refuses otherwise.
    private func replayed(onto current: [UInt8]) throws -> VaultContents {
        guard checksumOnDisk != nil else {
            throw VaultError.conflict(
                path: path, reason: "another vault was created at this path meanwhile; move one of them elsewhere")
        }
        let theirs = try current.withUnsafeBytes { try VaultHeader.parse($0, path: path) }
        try requireSameKeys(theirs)
        guard theirs.minorVersion <= VaultHeader.currentMinorVersion else {
            throw VaultError.unsupported(path: path, reason: "a newer pwtui saved it in the meantime")
        }
        header.generation = max(header.generation, theirs.generation)
        let other = try VaultFormat.decrypt(current, header: theirs, dataKey: dataKey, path: path)
        return try ChangeReplay.replay(pending, from: contents, onto: other, path: path)
    }

    /// Another save of this vault under the same keys, or a conflict saying what differs.
    private func requireSameKeys(_ theirs: VaultHeader) throws {
        guard theirs.vaultID == header.vaultID else {
            throw VaultError.conflict(path: path, reason: "a different vault was put in its place")
        }
        guard theirs.salt == header.salt, theirs.wrappedKey == header.wrappedKey else {
            throw VaultError.conflict(path: path, reason: "its master password was changed by another process")
        }
    }

    /// Re-reads the file when another process saved it since, with the data key already held:
    /// what a long-lived agent does before answering. Returns whether it changed. Throws a
    /// conflict when the file's keys changed (a new master password): the holder must lock.
    @discardableResult
    public func reloadIfChanged() throws -> Bool {
        guard try !isCurrentWithFile() else { return false }
        try reload(from: try VaultStorage.load(path))
        return true
    }

    /// Whether the file is the one this vault was read from or last saved: its header's checksum
    /// and its size tell (a new snapshot changes the one, a record appended the other), without
    /// reading the rest. Changes nothing (readers side by side may ask).
    public func isCurrentWithFile() throws -> Bool {
        try VaultStorage.withStart(of: path) { start, size, _ in
            Self.checksum(of: start) == checksumOnDisk && size == journal.fileSize
        }
    }

    /// Drops every change not saved and re-reads the file: after a save that failed, so that
    /// a long-lived holder does not write the failed change later with someone else's.
    public func revert() throws {
        try reload(from: try VaultStorage.load(path))
    }

    private func reload(from file: [UInt8]) throws {
        let theirs = try file.withUnsafeBytes { try VaultHeader.parse($0, path: path) }
        try requireSameKeys(theirs)
        let opened = try VaultFormat.open(file, header: theirs, dataKey: dataKey, path: path)
        contents = opened.contents
        journal = opened.journal
        header = theirs
        checksumOnDisk = Self.checksum(of: file)
        pending = []
        lastAppended = nil
    }

    static func checksum(of file: [UInt8]) -> [UInt8]? {
        guard file.count >= VaultHeader.byteCount else { return nil }
        return Array(file[VaultHeader.checksumOffset ..< VaultHeader.byteCount])
    }
}
