#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// Small state and settings files: a temporary file in the same directory, mode 0600 from its
/// creation, then rename over the old one, so a reader sees the old or the new file, never half
/// of one. Plain system calls: the agent writes the use history on every answer, and Foundation's
/// file manager cost half a millisecond of it.
enum AtomicFile {
    static func write(_ data: Data, to path: String) throws {
        let directory = (path as NSString).deletingLastPathComponent
        try makeDirectories(directory.isEmpty ? "." : directory)
        let temporary = (directory.isEmpty ? "." : directory) + "/." + (path as NSString).lastPathComponent
            + ".tmp-" + UUID().uuidString
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw VaultError.io(path: temporary, operation: "creating", errno: errno) }
        var failure: Int32 = 0
        data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count, let base = bytes.baseAddress {
                let written = Glibc.write(fd, base + offset, bytes.count - offset)
                if written < 0, errno == EINTR { continue }
                guard written > 0 else {
                    failure = errno
                    return
                }
                offset += written
            }
        }
        if close(fd) != 0, failure == 0 { failure = errno }
        if failure == 0, rename(temporary, path) != 0 { failure = errno }
        if failure != 0 {
            unlink(temporary)
            throw VaultError.io(path: path, operation: "writing", errno: failure)
        }
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
