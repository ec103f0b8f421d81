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

    /// Whether this process may create and rename files in `directory` (a save needs both).
    public static func isWritableDirectory(_ directory: String) -> Bool {
        access(directory, W_OK | X_OK) == 0
    }

    /// Whether anything is at `path` (a dangling link counts as nothing).
    public static func exists(_ path: String) -> Bool {
        access(path, F_OK) == 0
    }

    /// Whether this process may execute `path` (access(2) with X_OK, as a shell's PATH search
    /// asks; a searchable directory counts too, as it did with Foundation's `isExecutableFile`).
    public static func isExecutable(_ path: String) -> Bool {
        access(path, X_OK) == 0
    }

    /// getcwd(3); "" when it cannot be had (the directory was removed), as Foundation's
    /// `currentDirectoryPath` gave, so that `absolute` still yields a path.
    public static var currentDirectory: String {
        guard let pointer = getcwd(nil, 0) else { return "" }
        defer { free(pointer) }
        return String(cString: pointer)
    }

    /// `path` as it is when this process is elsewhere: unchanged when absolute, else under the
    /// current directory. Nothing is resolved (links, `..`): the caller decides whether to.
    public static func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : currentDirectory + "/" + path
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

    /// mkdir -p: the missing directories on the way to `path`, then `path` itself with
    /// `permissions` (both less the umask); one already there, as a directory, is no error.
    public static func makeDirectories(_ path: String, permissions: UInt32 = 0o777) throws(SystemError) {
        if (try? status(path))?.kind == .directory { return }
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        if let slash = trimmed.lastIndex(of: "/"), slash != trimmed.startIndex {
            // Ancestors get the default mode, as Foundation gave them; the caller's is for the last.
            try makeDirectories(String(trimmed[..<slash]))
        }
        guard mkdir(path, mode_t(permissions)) == 0 else {
            let failure = SystemError.current  // before stat can touch errno
            // Made meanwhile by another process: there now, which is all that was asked.
            if failure.code == EEXIST, (try? status(path))?.kind == .directory { return }
            throw failure
        }
    }

    /// rm -r: `path` and, when it is a directory (not a link to one), everything in it, depth
    /// first. A link is removed, never followed. Missing: ENOENT.
    public static func removeTree(_ path: String) throws(SystemError) {
        guard try linkStatus(path).kind == .directory else { return try remove(path) }
        for name in try entries(of: path) {
            try removeTree(path + "/" + name)
        }
        guard rmdir(path) == 0 else { throw .current }
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

    /// Where the chain of symbolic links at `path` ends: `path` itself when it is no link, else
    /// the first path along the chain that is none (it may not exist: a dangling link's target),
    /// each relative destination taken from its link's directory; nil after 40 links (a loop, as
    /// the kernel's ELOOP) or a link that cannot be read. What a `>` redirection writes to.
    public static func linkTarget(_ path: String) -> String? {
        var current = path
        for _ in 0 ..< 40 {
            guard let status = try? linkStatus(current), status.kind == .symbolicLink else { return current }
            guard let destination = try? linkDestination(current) else { return nil }
            if destination.hasPrefix("/") {
                current = destination
            } else if let slash = current.lastIndex(of: "/") {
                current = String(current[...slash]) + destination
            } else {
                current = destination
            }
        }
        return nil
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
