#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import VaultCrypto

// The save protocol: how a new vault image replaces the old one without ever leaving a torn,
// half-written or unverified file behind, even when the process is killed at any instruction,
// the disk fills up, or another pwtui saves at the same moment.
//
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
//  5. Read the temporary file back and let the caller decrypt it: a write the disk acknowledged
//     but garbled is caught here, while the old vault is still in place.
//  6. Keep the previous file as `.bak` (a hard link: no bytes copied, no space needed).
//  7. rename() the temporary file over the vault: atomic, so any reader sees the old or the new.
//  8. fsync the directory, so that the rename itself survives a power cut. Only then succeed.
//
// Any error before step 7 unlinks the temporary file; the vault is byte-identical to before.
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
        guard let bytes = try readIfPresent(path) else { throw VaultError.notFound(path: path) }
        return bytes
    }

    /// The vault file's header alone, checked (it is not secret): enough to know which vault and
    /// which save a file holds without reading the whole file.
    public static func loadHeader(_ path: String) throws -> VaultHeader {
        guard let bytes = try readIfPresent(path, limit: VaultHeader.byteCount) else { throw VaultError.notFound(path: path) }
        var info = stat()
        guard stat(path, &info) == 0 else { throw VaultError.io(path: path, operation: "reading", errno: errno) }
        return try bytes.withUnsafeBytes { try VaultHeader.parse($0, path: path, fileSize: Int(info.st_size)) }
    }

    /// The file's bytes (the first `limit` at most), or nil when it does not exist.
    static func readIfPresent(_ path: String, limit: Int = .max) throws -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT { return nil }
            throw VaultError.io(path: path, operation: "opening", errno: errno)
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw VaultError.io(path: path, operation: "reading", errno: errno) }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw VaultError.corrupt(path: path, reason: "it is not a regular file")
        }
        var bytes = [UInt8](repeating: 0, count: min(Int(info.st_size), limit))
        var filled = 0
        while true {
            let room = bytes.count - filled
            if room == 0 {
                if filled >= limit { break }
                // The file grew since fstat; read the rest too, so that trailing bytes are seen.
                bytes += [UInt8](repeating: 0, count: 4096)
                continue
            }
            let got = bytes.withUnsafeMutableBytes { buffer in
                buffer.baseAddress.map { read(fd, $0 + filled, room) } ?? 0
            }
            if got < 0 {
                if errno == EINTR { continue }
                throw VaultError.io(path: path, operation: "reading", errno: errno)
            }
            if got == 0 { break }
            filled += got
        }
        bytes.removeLast(bytes.count - filled)
        return bytes
    }

    /// Runs the save protocol. `produce` gets the file now on disk (nil if there is none) and
    /// returns the new image; `verify` gets the image as read back from the temporary file and
    /// throws if it is not right.
    public static func commit(
        path: String, backup: Backup,
        produce: ([UInt8]?) throws -> [UInt8],
        verify: ([UInt8]) throws -> Void
    ) throws {
        let (directory, name) = split(path)
        let lock = try FileLock(path: path + ".lock")
        defer { lock.release() }
        removeStaleTemporaries(directory: directory, name: name)

        let image = try produce(try readIfPresent(path))
        let temporary = directory + "/." + name + ".tmp-" + (try randomSuffix())
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw VaultError.io(path: temporary, operation: "creating", errno: errno) }
        do {
            do {
                defer { close(fd) }
                try writeAll(fd, image, path: temporary)
                guard fsync(fd) == 0 else { throw VaultError.io(path: temporary, operation: "syncing", errno: errno) }
            }
            guard let readBack = try readIfPresent(temporary), readBack == image else {
                throw VaultError.io(path: temporary, operation: "verifying", errno: EIO)
            }
            try verify(readBack)
            try updateBackup(of: path, policy: backup)
            guard rename(temporary, path) == 0 else {
                throw VaultError.io(path: path, operation: "replacing", errno: errno)
            }
        } catch {
            unlink(temporary)
            throw error
        }
        try syncDirectory(directory)
    }

    /// Creates the vault's directory (and parents) with mode 0700 where missing.
    public static func createDirectory(for path: String) throws {
        let (directory, _) = split(path)
        var current = directory.hasPrefix("/") ? "" : "."
        for component in directory.split(separator: "/") {
            current += "/" + component
            if mkdir(current, 0o700) != 0, errno != EEXIST {
                throw VaultError.io(path: current, operation: "creating directory", errno: errno)
            }
        }
    }

    private static func split(_ path: String) -> (directory: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let directory = String(path[..<slash])
        return (directory.isEmpty ? "/" : directory, String(path[path.index(after: slash)...]))
    }

    private static func writeAll(_ fd: Int32, _ bytes: [UInt8], path: String) throws {
        var written = 0
        while written < bytes.count {
            let result = bytes.withUnsafeBytes { buffer in
                buffer.baseAddress.map { write(fd, $0 + written, bytes.count - written) } ?? 0
            }
            if result < 0 {
                if errno == EINTR { continue }
                throw VaultError.io(path: path, operation: "writing", errno: errno)
            }
            written += result
        }
    }

    private static func updateBackup(of path: String, policy: Backup) throws {
        let backup = path + ".bak"
        if unlink(backup) != 0, errno != ENOENT {
            throw VaultError.io(path: backup, operation: "removing", errno: errno)
        }
        guard policy == .keepPrevious else { return }
        if link(path, backup) != 0, errno != ENOENT {
            throw VaultError.io(path: backup, operation: "creating", errno: errno)
        }
    }

    private static func syncDirectory(_ directory: String) throws {
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw VaultError.io(path: directory, operation: "opening directory", errno: errno) }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw VaultError.io(path: directory, operation: "syncing directory", errno: errno) }
    }

    private static func removeStaleTemporaries(directory: String, name: String) {
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

    private static func randomSuffix() throws -> String {
        let bytes = try cryptoCall { () throws(VaultCryptoError) in try RandomBytes.make(6) }
        return bytes.map { String(format: "%02x", $0) }.joined()
    }
}

/// An exclusive advisory lock held for the life of the value.
struct FileLock {
    private let fd: Int32

    init(path: String) throws {
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw VaultError.io(path: path, operation: "opening lock file", errno: errno) }
        while flock(fd, LOCK_EX) != 0 {
            if errno == EINTR { continue }
            let code = errno
            close(fd)
            throw VaultError.io(path: path, operation: "locking", errno: code)
        }
        self.fd = fd
    }

    func release() {
        close(fd)
    }
}
