import Platform

/// Reading the small files pwtui keeps (the vault, its header, the identity store and its key,
/// the settings' neighbours): whole, from a regular file only. A FIFO, a device or a directory at
/// one of those paths is refused with what it is, never opened for a read that could block.
enum RegularFile {
    /// Refuses anything but a regular file (after links), naming what it is instead.
    static func require(_ info: FileStatus, path: String) throws {
        let kind: String
        switch info.kind {
        case .regular: return
        case .fifo: kind = "a FIFO (named pipe)"
        case .directory: kind = VaultError.directoryKind
        case .characterDevice: kind = "a character device"
        case .blockDevice: kind = "a block device"
        case .socket: kind = "a socket"
        case .symbolicLink, .other: kind = "not a regular file"
        }
        throw VaultError.notAFile(path: path, kind: kind)
    }

    /// The file's bytes (the first `limit` at most), or nil when it does not exist.
    static func readIfPresent(_ path: String, limit: Int = .max) throws -> [UInt8]? {
        // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer forever (and
        // with it `list`, `suggest`, or an agent that must stay free to lock when idle). Nothing
        // that is not a regular file is read at all.
        let fd: FileDescriptor
        do {
            fd = try FileDescriptor.open(path, [.readOnly, .nonBlocking, .noControllingTerminal])
        } catch {
            if error.isNoSuchEntry { return nil }
            throw VaultError.io(path: path, operation: "opening", errno: error.code)
        }
        defer { fd.close() }
        let info = try VaultError.during("reading", of: path) { try fd.status() }
        try require(info, path: path)
        var bytes = [UInt8](repeating: 0, count: min(info.size, limit))
        var filled = 0
        while true {
            let room = bytes.count - filled
            if room == 0 {
                if filled >= limit { break }
                // The file grew since fstat; read the rest too, so that trailing bytes are seen.
                bytes += [UInt8](repeating: 0, count: 4096)
                continue
            }
            let got = try read(fd, into: &bytes, at: filled, path: path)
            if got == 0 { break }
            filled += got
        }
        bytes.removeLast(bytes.count - filled)
        return bytes
    }

    /// One read into `bytes` from `offset` on; 0 at the end of the file.
    private static func read(_ fd: FileDescriptor, into bytes: inout [UInt8], at offset: Int, path: String) throws -> Int {
        do {
            return try bytes.withUnsafeMutableBytes { try fd.readSome(into: UnsafeMutableRawBufferPointer(rebasing: $0[offset...])) }
        } catch let error as SystemError {
            throw VaultError.io(path: path, operation: "reading", errno: error.code)
        }
    }
}
