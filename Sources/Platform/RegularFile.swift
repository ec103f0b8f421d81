#if canImport(Glibc)
    import Glibc
#endif

/// The one way pwtui reads a file whole: the vault, its header, the identity store, settings,
/// themes, generations, git's rejections, the password-change marker, word lists, the files of a
/// git repository it edits, a pass store's entries. Only a regular file is read: a FIFO, a device
/// (`/dev/zero`), a socket or a directory at one of those paths is refused with what it is,
/// and never opened for a read that could block or never end.
///
/// The open is non-blocking (opening a FIFO for reading otherwise waits for a writer forever),
/// the type is checked on the open descriptor (no window between a check and the open), and the
/// size is bounded (a file that grows while read, or a huge one, does not take all memory).
public enum RegularFile {
    /// Why a file was not read; each says what to do about it.
    public enum Failure: Error, Equatable, Sendable, CustomStringConvertible {
        /// Something other than a regular file is there (`kind`: "a FIFO (named pipe)", ...).
        case notRegular(path: String, kind: String)
        /// A symbolic link where links are refused (`Links.refuse`).
        case symbolicLink(path: String)
        /// Larger than the caller's bound.
        case tooLarge(path: String, limit: Int)
        /// A system call failed (permission, I/O).
        case system(path: String, operation: String, SystemError)

        public var description: String {
            switch self {
            case .notRegular(let path, let kind):
                return "\(path) is \(kind), not a regular file; refusing to read it"
            case .symbolicLink(let path):
                return "\(path) is a symbolic link; refusing to follow it (replace it with a regular file)"
            case .tooLarge(let path, let limit):
                return "\(path) is larger than \(limit) bytes; refusing to read it"
            case .system(let path, let operation, let error):
                return "\(operation) \(path) failed: \(error)"
            }
        }
    }

    /// Whether the last component of the path may be a symbolic link.
    public enum Links: Sendable {
        /// Followed: a file the user placed (settings, a theme, the vault).
        case follow
        /// Refused (O_NOFOLLOW): a file in a directory others write, such as a cloned repository,
        /// where a link would make pwtui read (and then publish) a file it was never meant to.
        case refuse
    }

    /// The bound for files that are not the vault: far above any real settings file, theme or
    /// word list, far below what would hurt.
    public static let defaultLimit = 16 << 20

    /// The file's bytes, or nil when nothing is at `path`. `limit`: a larger file is refused
    /// (`tooLarge`), unless `prefix`, which reads only the first `limit` bytes.
    public static func readIfPresent(
        _ path: String, limit: Int = defaultLimit, prefix: Bool = false,
        links: Links = .follow
    ) throws(Failure) -> [UInt8]? {
        guard let (fd, info) = try openIfPresent(path, links: links) else { return nil }
        defer { fd.close() }
        if !prefix, info.size > limit { throw .tooLarge(path: path, limit: limit) }
        var bytes = [UInt8](repeating: 0, count: min(info.size, limit))
        var filled = 0
        while true {
            if filled == bytes.count {
                if filled >= limit {
                    if prefix { break }
                    // Grown past the bound since fstat: one more byte says whether it did.
                    var probe: UInt8 = 0
                    let more = withUnsafeMutableBytes(of: &probe) { read(fd, into: $0, path: path) }
                    if try more.get() > 0 { throw .tooLarge(path: path, limit: limit) }
                    break
                }
                // The file grew since fstat; read the rest too, so that trailing bytes are seen.
                bytes += [UInt8](repeating: 0, count: min(4096, limit - filled))
            }
            let got = try bytes.withUnsafeMutableBytes {
                read(fd, into: UnsafeMutableRawBufferPointer(rebasing: $0[filled...]), path: path)
            }.get()
            if got == 0 { break }
            filled += got
        }
        bytes.removeLast(bytes.count - filled)
        return bytes
    }

    /// The open file and what fstat says of it, nil when nothing is at `path`; anything but a
    /// regular file is refused before a byte is read. For a reader that takes it from here (into
    /// protected memory, or as a child's standard input); the caller closes it.
    public static func openIfPresent(_ path: String, links: Links = .follow) throws(Failure) -> (
        FileDescriptor, FileStatus
    )? {
        var options: FileDescriptor.OpenOptions = [.readOnly, .nonBlocking, .noControllingTerminal]
        if links == .refuse { options.insert(.noFollow) }
        let fd: FileDescriptor
        do {
            fd = try FileDescriptor.open(path, options)
        } catch {
            if error.isNoSuchEntry { return nil }
            if error.code == ELOOP, links == .refuse { throw .symbolicLink(path: path) }
            throw .system(path: path, operation: "opening", error)
        }
        let info: FileStatus
        do {
            info = try fd.status()
        } catch {
            fd.close()
            throw .system(path: path, operation: "reading", error)
        }
        do {
            try require(info, path: path)
        } catch {
            fd.close()
            throw error
        }
        return (fd, info)
    }

    /// As `readIfPresent`, as text (invalid UTF-8 repaired with U+FFFD).
    public static func textIfPresent(_ path: String, limit: Int = defaultLimit, links: Links = .follow) throws(Failure)
        -> String?
    {
        guard let bytes = try readIfPresent(path, limit: limit, links: links) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Refuses anything but a regular file, naming what it is instead.
    public static func require(_ info: FileStatus, path: String) throws(Failure) {
        guard info.kind != .regular else { return }
        throw .notRegular(path: path, kind: kindName(info.kind))
    }

    /// What a file of that kind is called in a message ("a FIFO (named pipe)").
    public static func kindName(_ kind: FileStatus.Kind) -> String {
        switch kind {
        case .regular: return "a regular file"
        case .fifo: return "a FIFO (named pipe)"
        case .directory: return "a directory"
        case .characterDevice: return "a character device"
        case .blockDevice: return "a block device"
        case .socket: return "a socket"
        case .symbolicLink: return "a symbolic link"
        case .other: return "not a regular file"
        }
    }

    /// One read; 0 at the end of the file. A `Result`: the buffer closures that call it rethrow
    /// untyped errors.
    private static func read(_ fd: FileDescriptor, into buffer: UnsafeMutableRawBufferPointer, path: String) -> Result<
        Int, Failure
    > {
        do {
            return .success(try fd.readSome(into: buffer))
        } catch {
            return .failure(.system(path: path, operation: "reading", error))
        }
    }
}
