#if canImport(Glibc)
    import Glibc
#endif

/// The file-system calls the save protocol and its neighbours make, one Swift function each:
/// the same call, the same order, but an error is a thrown `SystemError` rather than a -1 and
/// errno to be read before anything else touches it. Nothing here decides policy (what is
/// atomic, what is durable): that is `AtomicFile`'s and `VaultStorage`'s.
public enum FileSystem {
    /// stat(2): follows symbolic links.
    public static func status(_ path: String) throws(SystemError) -> FileStatus {
        var info = stat()
        guard stat(path, &info) == 0 else { throw .current }
        return FileStatus(info)
    }

    /// lstat(2): a symbolic link is described, not followed.
    public static func linkStatus(_ path: String) throws(SystemError) -> FileStatus {
        var info = stat()
        guard lstat(path, &info) == 0 else { throw .current }
        return FileStatus(info)
    }

    /// Whether anything is at `path` (a dangling link counts as nothing).
    /// Whether this process may create and rename files in `directory` (a save needs both).
    public static func isWritableDirectory(_ directory: String) -> Bool {
        access(directory, W_OK | X_OK) == 0
    }

    public static func exists(_ path: String) -> Bool {
        access(path, F_OK) == 0
    }

    /// rename(2): atomic within one file system.
    public static func rename(_ source: String, to destination: String) throws(SystemError) {
        guard Glibc.rename(source, destination) == 0 else { throw .current }
    }

    /// link(2): a second name for the same file.
    public static func link(_ existing: String, as newName: String) throws(SystemError) {
        guard Glibc.link(existing, newName) == 0 else { throw .current }
    }

    /// unlink(2).
    public static func remove(_ path: String) throws(SystemError) {
        guard unlink(path) == 0 else { throw .current }
    }

    /// unlink(2), where a missing file is not an error; other failures are thrown.
    public static func removeIfPresent(_ path: String) throws(SystemError) {
        guard unlink(path) == 0 || errno == ENOENT else { throw .current }
    }

    /// mkdir(2) of one directory.
    public static func makeDirectory(_ path: String, permissions: UInt32 = 0o700) throws(SystemError) {
        guard mkdir(path, mode_t(permissions)) == 0 else { throw .current }
    }

    /// chmod(2).
    public static func setPermissions(_ path: String, to permissions: UInt32) throws(SystemError) {
        guard chmod(path, mode_t(permissions)) == 0 else { throw .current }
    }

    /// readlink(2): where a symbolic link points, as written in it.
    public static func linkDestination(_ path: String) throws(SystemError) -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count > 0 else { throw .current }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The names in a directory, without `.` and `..`.
    public static func entries(of directory: String) throws(SystemError) -> [String] {
        guard let handle = opendir(directory) else { throw .current }
        defer { closedir(handle) }
        var names: [String] = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != ".", name != ".." { names.append(name) }
        }
        return names
    }
}
