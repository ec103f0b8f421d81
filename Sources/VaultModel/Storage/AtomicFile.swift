import FoundationEssentials
import Platform
import UnicodeText
import VaultCrypto

// The one way pwtui replaces a file: the vault (through `VaultStorage`'s save protocol, which
// adds its checks around these steps) and the small files beside it (identity store, use
// history, settings) alike.
//
// A new version is written to a temporary file in the same directory (same filesystem, so the
// rename is atomic), created with O_EXCL and mode 0600 so nobody else ever sees it with wider
// rights, and fsynced before it is renamed over the old file; the directory is then fsynced so
// the rename itself survives a power cut. A reader sees the old file or the new one, never half
// of one. A writer killed before its rename leaves its temporary behind: the next writer of the
// same file removes it, which is safe only because it holds the lock that every writer of that
// file takes first (for the small files, an flock on their directory, which also serves the
// directory fsync; the vault has its own lock file, see `VaultStorage`).
public enum AtomicFile {
    /// Replaces `path` with `data` (see above). `durable`: false skips both fsyncs, for a file
    /// whose loss in a power cut costs nothing (the use history, written on every answer).
    /// `keepExisting`: when it accepts the file already there, that file stays (under the lock,
    /// so of two processes creating a file at once, one writes it and both then read the same).
    /// `replacing`: another file the new one makes obsolete (the identity store's journal),
    /// removed under the same lock after the rename.
    public static func write(
        _ data: Data, to path: String, durable: Bool = true,
        keepExisting: (([UInt8]) -> Bool)? = nil, replacing obsolete: String? = nil
    ) throws {
        try data.withUnsafeBytes {
            try write(bytes: $0, to: path, durable: durable, keepExisting: keepExisting, replacing: obsolete)
        }
    }

    /// As above, from bytes that may live in protected memory (an export: every password).
    public static func write(
        bytes: UnsafeRawBufferPointer, to path: String, durable: Bool = true,
        keepExisting: (([UInt8]) -> Bool)? = nil, replacing obsolete: String? = nil
    ) throws {
        try whileLocked(beside: path) { directoryFD in
            try replace(path, with: bytes, durable: durable, keepExisting: keepExisting, directoryFD: directoryFD)
            if let obsolete {
                try VaultError.during("removing", of: obsolete) { try FileSystem.removeIfPresent(obsolete) }
            }
        }
    }

    /// Runs `body` holding the lock every writer of the small files in `path`'s directory takes
    /// (an flock on the directory, created 0700 where missing), with the directory open.
    static func whileLocked<T>(beside path: String, _ body: (FileDescriptor) throws -> T) throws -> T {
        let (directory, _) = split(path)
        try makeDirectories(directory)
        let directoryFD = try VaultError.during("opening directory", of: directory) {
            try FileDescriptor.open(directory, [.readOnly, .directory])
        }
        defer { directoryFD.close() }
        try FileLock.lock(directoryFD, path: directory)
        return try body(directoryFD)
    }

    private static func replace(
        _ path: String, with bytes: UnsafeRawBufferPointer, durable: Bool, keepExisting: (([UInt8]) -> Bool)?,
        directoryFD: FileDescriptor
    ) throws {
        removeStaleTemporaries(of: path)
        if let keepExisting, let existing = try? StoredFile.readIfPresent(path), keepExisting(existing) { return }
        let temporary = try writeTemporary(bytes, beside: path, sync: durable)
        do {
            try FileSystem.rename(temporary, to: path)
        } catch {
            try? FileSystem.remove(temporary)
            throw VaultError.io(path: path, operation: "replacing", errno: error.code)
        }
        guard durable else { return }
        try VaultError.afterSaving("syncing directory", of: path) { try directoryFD.sync() }
    }

    /// Writes `bytes` to a new temporary file beside `path` (O_EXCL, 0600) and fsyncs it when
    /// `sync`; returns its path. On failure nothing is left behind.
    static func writeTemporary(_ bytes: UnsafeRawBufferPointer, beside path: String, sync: Bool = true) throws -> String
    {
        let temporary = temporaryPrefix(of: path) + (try randomSuffix())
        let fd = try VaultError.during("creating", of: temporary) {
            try FileDescriptor.open(temporary, [.writeOnly, .create, .exclusive], permissions: 0o600)
        }
        do {
            defer { fd.close() }
            try VaultError.during("writing", of: temporary) { try fd.writeAll(bytes) }
            if sync { try VaultError.during("syncing", of: temporary) { try fd.sync() } }
        } catch {
            try? FileSystem.remove(temporary)
            throw error
        }
        return temporary
    }

    /// Removes the temporaries of `path` that killed writers left. The caller holds the file's
    /// write lock, so none of them is being written.
    static func removeStaleTemporaries(of path: String) {
        let (directory, name) = split(path)
        guard let entries = try? FileSystem.entries(of: directory) else { return }
        let prefix = "." + name + ".tmp-"
        for entry in entries where entry.hasPrefix(prefix) {
            try? FileSystem.remove(directory + "/" + entry)
        }
    }

    /// fsyncs the directory that holds `path`, after a rename in it. The rename has happened:
    /// a failure here means the new file is in place but may not survive a power cut.
    static func syncDirectory(of path: String) throws {
        let (directory, _) = split(path)
        let fd = try VaultError.afterSaving("opening directory", of: path) {
            try FileDescriptor.open(directory, [.readOnly, .directory])
        }
        defer { fd.close() }
        try VaultError.afterSaving("syncing directory", of: path) { try fd.sync() }
    }

    static func temporaryPrefix(of path: String) -> String {
        let (directory, name) = split(path)
        return directory + "/." + name + ".tmp-"
    }

    public static func split(_ path: String) -> (directory: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let directory = String(path[..<slash])
        return (directory.isEmpty ? "/" : directory, String(path[path.index(after: slash)...]))
    }

    private static func randomSuffix() throws -> String {
        let bytes = try cryptoCall { () throws(VaultCryptoError) in try RandomBytes.make(6) }
        return Hex.string(bytes)
    }

    /// `mkdir -p` with mode 0700 for the directories it creates.
    private static func makeDirectories(_ directory: String) throws {
        if (try? FileSystem.status(directory)) != nil { return }
        let parent = AtomicFile.split(directory).directory
        if !parent.isEmpty, parent != directory { try makeDirectories(parent) }
        do {
            try FileSystem.makeDirectory(directory, permissions: 0o700)
        } catch  where error.isAlreadyExisting {
            return
        } catch {
            throw VaultError.io(path: directory, operation: "creating the directory", errno: error.code)
        }
    }
}
