#if canImport(Glibc)
import Glibc
#endif
import Foundation
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
enum AtomicFile {
    /// Replaces `path` with `data` (see above). `durable`: false skips both fsyncs, for a file
    /// whose loss in a power cut costs nothing (the use history, written on every answer).
    /// `keepExisting`: when it accepts the file already there, that file stays (under the lock,
    /// so of two processes creating a file at once, one writes it and both then read the same).
    static func write(_ data: Data, to path: String, durable: Bool = true,
                      keepExisting: (([UInt8]) -> Bool)? = nil) throws {
        let (directory, _) = split(path)
        try makeDirectories(directory)
        let directoryFD = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard directoryFD >= 0 else { throw VaultError.io(path: directory, operation: "opening directory", errno: errno) }
        defer { close(directoryFD) }
        while flock(directoryFD, LOCK_EX) != 0 {
            guard errno == EINTR else { throw VaultError.io(path: directory, operation: "locking directory", errno: errno) }
        }
        removeStaleTemporaries(of: path)
        if let keepExisting, let existing = try? VaultStorage.readIfPresent(path), keepExisting(existing) { return }
        let temporary = try writeTemporary([UInt8](data), beside: path, sync: durable)
        guard rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw VaultError.io(path: path, operation: "replacing", errno: code)
        }
        guard durable else { return }
        guard fsync(directoryFD) == 0 else {
            throw VaultError.savedNotDurable(path: path, operation: "syncing directory", errno: errno)
        }
    }

    /// Writes `bytes` to a new temporary file beside `path` (O_EXCL, 0600) and fsyncs it when
    /// `sync`; returns its path. On failure nothing is left behind.
    static func writeTemporary(_ bytes: [UInt8], beside path: String, sync: Bool = true) throws -> String {
        let temporary = temporaryPrefix(of: path) + (try randomSuffix())
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw VaultError.io(path: temporary, operation: "creating", errno: errno) }
        do {
            defer { close(fd) }
            try writeAll(fd, bytes, path: temporary)
            if sync, fsync(fd) != 0 { throw VaultError.io(path: temporary, operation: "syncing", errno: errno) }
        } catch {
            unlink(temporary)
            throw error
        }
        return temporary
    }

    /// Removes the temporaries of `path` that killed writers left. The caller holds the file's
    /// write lock, so none of them is being written.
    static func removeStaleTemporaries(of path: String) {
        let (directory, name) = split(path)
        guard let dir = opendir(directory) else { return }
        defer { closedir(dir) }
        let prefix = "." + name + ".tmp-"
        while let entry = readdir(dir) {
            let entryName = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if entryName.hasPrefix(prefix) { unlink(directory + "/" + entryName) }
        }
    }

    /// fsyncs the directory that holds `path`, after a rename in it. The rename has happened:
    /// a failure here means the new file is in place but may not survive a power cut.
    static func syncDirectory(of path: String) throws {
        let (directory, _) = split(path)
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw VaultError.savedNotDurable(path: path, operation: "opening directory", errno: errno) }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw VaultError.savedNotDurable(path: path, operation: "syncing directory", errno: errno) }
    }

    static func temporaryPrefix(of path: String) -> String {
        let (directory, name) = split(path)
        return directory + "/." + name + ".tmp-"
    }

    static func split(_ path: String) -> (directory: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let directory = String(path[..<slash])
        return (directory.isEmpty ? "/" : directory, String(path[path.index(after: slash)...]))
    }

    private static func writeAll(_ fd: Int32, _ bytes: [UInt8], path: String) throws {
        var written = 0
        while written < bytes.count {
            let result = bytes.withUnsafeBytes { buffer in
                buffer.baseAddress.map { Glibc.write(fd, $0 + written, bytes.count - written) } ?? 0
            }
            if result < 0 {
                if errno == EINTR { continue }
                throw VaultError.io(path: path, operation: "writing", errno: errno)
            }
            written += result
        }
    }

    private static func randomSuffix() throws -> String {
        let bytes = try cryptoCall { () throws(VaultCryptoError) in try RandomBytes.make(6) }
        return Hex.string(bytes)
    }

    /// `mkdir -p` with mode 0700 for the directories it creates.
    private static func makeDirectories(_ directory: String) throws {
        var info = stat()
        if stat(directory, &info) == 0 { return }
        let parent = (directory as NSString).deletingLastPathComponent
        if !parent.isEmpty, parent != directory { try makeDirectories(parent) }
        guard mkdir(directory, 0o700) == 0 || errno == EEXIST else {
            throw VaultError.io(path: directory, operation: "creating the directory", errno: errno)
        }
    }
}
