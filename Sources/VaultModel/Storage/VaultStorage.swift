import FoundationEssentials
import Platform
import VaultCrypto

// The save protocol: how a new vault image replaces the old one without ever leaving a torn,
// half-written or unverified file behind, even when the process is killed at any instruction,
// the disk fills up, or another pwtui saves at the same moment. The file steps are
// `AtomicFile`'s, shared with the small files beside the vault.
//
//  0. A vault path that is a symbolic link is resolved once, and every step below happens beside
//     the target (lock, temporary, `.bak`, rename, directory fsync): the link stays a link.
//  1. Take an exclusive flock on a side file (`vault.pwtui.lock`). Locking the vault itself would
//     not work: rename replaces the inode, and a waiter would then hold a lock on the old one.
//     The kernel drops the lock when the process dies, so a kill -9 never leaves it stuck.
//  2. Remove temporary files that a killed saver left (nobody else can be writing: we hold the
//     lock).
//  3. Read the file on disk and hand it to the caller, who checks it is still the one it opened
//     and merges or refuses if not. This is the only moment at which "someone else saved in
//     between" can be noticed safely, because nobody can save again until we release the lock.
//  4. Write the new image to a temporary file in the same directory (same filesystem, so the
//     rename below is atomic), created with O_EXCL and mode 0600, and fsync it.
//  5. Read the temporary file back and compare it with the image, byte for byte to its end, then
//     let the caller decrypt the image (now known to be the file's bytes) and check what it
//     holds: a write the disk acknowledged but garbled is caught here, while the old vault is
//     still in place. The file is compared a chunk at a time and the image decrypted in place,
//     so the payload is held once, not three times (issue 23: 110 MB each in a 100 MB import).
//  6. Keep the previous file as `.bak` (a hard link: no bytes copied, no space needed; made
//     under a temporary name and renamed over the old `.bak`, so there is always one).
//  7. rename() the temporary file over the vault: atomic, so any reader sees the old or the new.
//  8. fsync the directory, so that the rename itself survives a power cut. Only then succeed.
//
// Any error before step 7 unlinks the temporary file; the vault is byte-identical to before.
// An error in step 8 is not "unchanged": the new vault is in force, only its durability is not
// confirmed, and `VaultError.savedNotDurable` says so.
public enum VaultStorage {
    /// What happens to `.bak`.
    public enum Backup: Sendable {
        /// The replaced file becomes `.bak`.
        case keepPrevious
        /// No `.bak` survives: after a password change the old file must not stay openable with
        /// the old password.
        case removeAll
    }

    /// Reads the whole vault file.
    public static func load(_ path: String) throws -> [UInt8] {
        guard let bytes = try StoredFile.readIfPresent(path) else { throw VaultError.notFound(path: path) }
        return bytes
    }

    /// The vault file's header alone, checked (it is not secret): enough to know which vault and
    /// which save a file holds without reading the whole file.
    public static func loadHeader(_ path: String) throws -> VaultHeader {
        try withStart(of: path) { start, size, _ in
            try start.withUnsafeBytes { try VaultHeader.parse($0, path: path, fileSize: size) }
        }
    }

    /// `body` with the file's first `VaultHeader.byteCount` bytes (fewer when it is shorter),
    /// its size, and a reader of more at an offset (nil on failure), all from one open: the
    /// header and the size then describe the same file, and what the agent asks before every
    /// answer, and a client after one, costs one open.
    static func withStart<T>(
        of path: String,
        _ body: (_ start: [UInt8], _ size: Int, _ read: (_ offset: Int, _ count: Int) -> [UInt8]?) throws -> T
    ) throws -> T {
        let opened: (FileDescriptor, FileStatus)?
        do { opened = try RegularFile.openIfPresent(path) } catch { throw VaultError(error) }
        guard let (fd, info) = opened else { throw VaultError.notFound(path: path) }
        defer { fd.close() }
        let start = try VaultError.during("reading", of: path) { try fd.readBytes(count: VaultHeader.byteCount, at: 0) }
        return try body(start, info.size) { offset, count in try? fd.readBytes(count: count, at: offset) }
    }

    /// The vault file's header and which version of the vault it holds (the journal records after
    /// the snapshot counted from the end of the file, `VaultJournal.lastSequence`), without the key:
    /// what the rollback check of a file it did not open compares. A torn or damaged end counts
    /// the records as none, so the check stays quiet rather than warn wrongly.
    public static func loadVersion(_ path: String) throws -> (header: VaultHeader, version: VaultVersion) {
        try withStart(of: path) { start, size, read in
            let header = try start.withUnsafeBytes { try VaultHeader.parse($0, path: path, fileSize: size) }
            let changes = VaultJournal.lastSequence(size: size, header: header, read: read)
            return (header, VaultVersion(generation: header.generation, changes: changes ?? 0))
        }
    }

    /// Refuses, without opening it, a vault path where nothing is (`notFound`) or something that
    /// is not a regular file after links (`notAFile`): what commands check before asking for a
    /// master password nobody could use.
    public static func requireVaultFile(_ path: String) throws {
        let info: FileStatus
        do {
            info = try FileSystem.status(path)
        } catch {
            if error.isNotFound { throw VaultError.notFound(path: path) }
            throw VaultError.io(path: path, operation: "reading", errno: error.code)
        }
        try StoredFile.require(info, path: path)
    }

    /// Runs the save protocol. `produce` gets the file now on disk (nil if there is none) and
    /// returns the new image, in protected memory (it was plaintext before it was sealed in
    /// place); `verify` gets that image once the temporary file is known to hold exactly its
    /// bytes, may decrypt it in place, and throws if what it holds is not right. A failure after
    /// the rename (the directory fsync) throws `VaultError.savedNotDurable`: the new image is the
    /// vault then. `lockHeld`: the caller holds the save lock already (`whileLocked`), and step 1
    /// does not take it again (a second flock of this process's would wait for the first).
    public static func commit(
        path: String, backup: Backup, lockHeld: Bool = false,
        produce: ([UInt8]?) throws -> SecureBytes,
        verify: (inout SecureBytes) throws -> Void
    ) throws {
        try commit(
            path: path, backup: backup, lockHeld: lockHeld, produce: produce, verify: verify, afterWriting: { _ in })
    }

    /// The save protocol, with `afterWriting` run on the temporary file between its write and
    /// its read-back: where the tests damage it, to see the read-back check catch it.
    static func commit(
        path: String, backup: Backup, lockHeld: Bool = false,
        produce: ([UInt8]?) throws -> SecureBytes,
        verify: (inout SecureBytes) throws -> Void,
        afterWriting: (String) throws -> Void
    ) throws {
        // A link is resolved once, and everything below happens beside its target: the link
        // stays a link, and the target (often in a synced folder) gets the change.
        let target = try resolveLinks(path)
        let lock = lockHeld ? nil : try FileLock(path: target + ".lock")
        defer { lock?.release() }
        AtomicFile.removeStaleTemporaries(of: target)

        var image = try produce(try StoredFile.readIfPresent(target))
        let temporary = try image.withUnsafeBytes { bytes in try AtomicFile.writeTemporary(bytes, beside: target) }
        do {
            try afterWriting(temporary)
            guard try image.withUnsafeBytes({ bytes in try StoredFile.holds(temporary, exactly: bytes) }) else {
                throw VaultError.io(path: temporary, operation: "verifying", errno: SystemError.inputOutput.code)
            }
            try verify(&image)
            try updateBackup(of: target, policy: backup)
            try VaultError.during("replacing", of: target) { try FileSystem.rename(temporary, to: target) }
        } catch {
            try? FileSystem.remove(temporary)
            throw error
        }
        try AtomicFile.syncDirectory(of: target)
    }

    /// The append protocol (`VaultJournal`): one record's `frame` written after the journal's
    /// end `position`, when the file is still the one that position describes. Returns false,
    /// having written nothing, when it is not (another process saved a snapshot, whose header
    /// checksum is not `snapshot`, or appended a record): the caller then saves a whole snapshot,
    /// replaying its changes onto the newer file.
    ///
    ///  1. Resolve links and take the save lock, as a whole save does (the same lock: an append
    ///     and a save never interleave).
    ///  2. Compare the file's header checksum with `snapshot`, and its size with the journal's end.
    ///     Bytes past the end that do not hold a whole frame are a torn record (a writer killed
    ///     mid-append, or a power cut): cut off. A whole frame there is another writer's record.
    ///  3. Write the frame at the end (pwrite: the offset is ours, never O_APPEND's "wherever the
    ///     end is now") and fdatasync, which makes the data and the new size durable.
    ///  4. Read the frame back, compare it byte for byte, and let `verify` open it.
    ///  5. Only then is the change acknowledged. Any failure in 3 or 4 cuts the file back to where
    ///     it was (and syncs that) and throws a failure that leaves the vault unchanged (exit 74).
    ///     An fdatasync that fails with EIO may have lost the frame's pages or not: the cut makes
    ///     the file say "not written" either way.
    public static func append(
        _ frame: [UInt8], to path: String, after position: JournalPosition, snapshot: [UInt8], lockHeld: Bool,
        verify: (UnsafeRawBufferPointer) throws -> Void
    ) throws -> Bool {
        let target = try resolveLinks(path)
        let lock = lockHeld ? nil : try FileLock(path: target + ".lock")
        defer { lock?.release() }
        // What a killed snapshot writer left, removed under the lock as a snapshot's save does.
        AtomicFile.removeStaleTemporaries(of: target)
        let fd = try VaultError.during("opening", of: target) {
            try FileDescriptor.open(target, [.readWrite, .nonBlocking, .noControllingTerminal])
        }
        defer { fd.close() }
        let info = try VaultError.during("reading", of: target) { try fd.status() }
        try StoredFile.require(info, path: target)
        let start = try VaultError.during("reading", of: target) {
            try fd.readBytes(count: VaultHeader.byteCount, at: 0)
        }
        guard start.count == VaultHeader.byteCount,
            Array(start[VaultHeader.checksumOffset...]) == snapshot, info.size >= position.end
        else { return false }
        if info.size > position.end {
            let next = try VaultError.during("reading", of: target) { try fd.readBytes(count: 4, at: position.end) }
            let length = next.count == 4 ? Int(next.withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }) : 0
            if length >= VaultJournal.sealedOverhead, position.end + VaultJournal.frameOverhead + length <= info.size {
                return false  // another writer's whole record
            }
            try VaultError.during("cutting off a torn record of", of: target) { try fd.truncate(to: position.end) }
        }
        do {
            try frame.withUnsafeBytes { bytes in
                try VaultError.during("appending to", of: target) { try fd.writeAll(bytes, at: position.end) }
            }
            try VaultError.during("syncing", of: target) { try fd.syncData() }
            let readBack = try VaultError.during("reading back", of: target) {
                try fd.readBytes(count: frame.count + 1, at: position.end)
            }
            guard readBack == frame else {
                throw VaultError.io(path: target, operation: "verifying", errno: SystemError.inputOutput.code)
            }
            try readBack.withUnsafeBytes { try verify($0) }
        } catch {
            try? fd.truncate(to: position.end)
            try? fd.syncData()
            throw error
        }
        return true
    }

    /// Runs `body` holding the vault's save lock (the flock that step 1 takes), so that no save
    /// lands while it runs: for writers of the vault file other than the save protocol — git's
    /// commit, merge and checkout in `pwtui sync` — which would otherwise read the file, let a
    /// save replace it, and write their own copy over the saved change. Waited for like a save's
    /// (`FileLock.patience`); a save that comes meanwhile waits for `body` in turn.
    public static func whileLocked<T: ~Copyable>(_ path: String, _ body: () throws -> T) throws -> T {
        let target = try resolveLinks(path)
        let lock = try FileLock(path: target + ".lock")
        defer { lock.release() }
        return try body()
    }

    /// The file `path` names after following symbolic links (at most 40, as the kernel does);
    /// `path` itself when it is not a link. A dangling link resolves to where its target would be.
    static func resolveLinks(_ path: String) throws -> String {
        var current = path
        for _ in 0 ..< 40 {
            guard (try? FileSystem.linkStatus(current))?.kind == .symbolicLink else { return current }
            let link = current
            let destination = try VaultError.during("reading the link", of: link) {
                try FileSystem.linkDestination(link)
            }
            current = destination.hasPrefix("/") ? destination : AtomicFile.split(current).directory + "/" + destination
        }
        throw VaultError.io(path: path, operation: "following the links of", errno: SystemError.tooManyLinks.code)
    }

    /// Creates the vault's directory (and parents) with mode 0700 where missing.
    public static func createDirectory(for path: String) throws {
        let (directory, _) = AtomicFile.split(path)
        var current = directory.hasPrefix("/") ? "" : "."
        for component in directory.split(separator: "/") {
            current += "/" + component
            do {
                try FileSystem.makeDirectory(current, permissions: 0o700)
            } catch {
                guard error.isAlreadyExisting else {
                    throw VaultError.io(path: current, operation: "creating directory", errno: error.code)
                }
            }
        }
    }

    /// `.bak` becomes the file now at `path`, atomically: a hard link made under a temporary name
    /// (removed with the other temporaries if the saver is killed) is renamed over it, so a kill
    /// at any moment leaves the previous `.bak` or the new one, never none.
    private static func updateBackup(of path: String, policy: Backup) throws {
        let backup = path + ".bak"
        guard policy == .keepPrevious else {
            try VaultError.during("removing", of: backup) { try FileSystem.removeIfPresent(backup) }
            return
        }
        let linked = AtomicFile.temporaryPrefix(of: path) + "bak"
        try? FileSystem.remove(linked)
        do {
            try FileSystem.link(path, as: linked)
        } catch {
            guard error.isNoSuchEntry else {
                throw VaultError.io(path: backup, operation: "creating", errno: error.code)
            }
            // No previous file: no previous version to keep.
            try VaultError.during("removing", of: backup) { try FileSystem.removeIfPresent(backup) }
            return
        }
        do {
            try FileSystem.rename(linked, to: backup)
        } catch {
            try? FileSystem.remove(linked)
            throw VaultError.io(path: backup, operation: "creating", errno: error.code)
        }
        // rename() between two links of one file (`.bak` already is the vault, after a save that
        // failed at its own rename) succeeds without removing the source.
        try? FileSystem.remove(linked)
    }
}
