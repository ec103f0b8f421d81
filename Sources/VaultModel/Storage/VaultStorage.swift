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
        guard let bytes = try StoredFile.readIfPresent(path, prefix: VaultHeader.byteCount) else {
            throw VaultError.notFound(path: path)
        }
        let info = try VaultError.during("reading", of: path) { try FileSystem.status(path) }
        return try bytes.withUnsafeBytes { try VaultHeader.parse($0, path: path, fileSize: info.size) }
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
