#if canImport(Glibc)
    import Glibc
#endif

/// A regular file read at chosen offsets (pread), never whole: Have I Been Pwned's ordered hash
/// file is tens of gigabytes, and `pwtui audit` reads a few kilobytes of it per password. The
/// file is opened as `RegularFile` opens every file (non-blocking, regular files only, what it is
/// named when it is not one), and closed when the value goes.
public final class PositionedFile {
    public let path: String
    /// The size when it was opened.
    public let size: Int
    private let descriptor: FileDescriptor

    /// Opens `path`; nothing there is a `.system` failure with ENOENT, told as "opening … failed".
    public init(_ path: String) throws(RegularFile.Failure) {
        guard let (descriptor, status) = try RegularFile.openIfPresent(path) else {
            throw .system(path: path, operation: "opening", SystemError(code: ENOENT))
        }
        self.path = path
        self.descriptor = descriptor
        size = status.size
    }

    deinit {
        descriptor.close()
    }

    /// Fills `buffer` from `offset` on, fewer bytes only at the end of the file; returns how
    /// many. pread(2), retried on EINTR and continued after a short read.
    public func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) throws(RegularFile.Failure) -> Int {
        do {
            return try descriptor.fill(buffer, at: offset)
        } catch {
            throw .system(path: path, operation: "reading", error)
        }
    }

    /// The bytes from `offset`, at most `count` (fewer at the end of the file).
    public func bytes(at offset: Int, count: Int) throws(RegularFile.Failure) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: max(0, min(count, size - offset)))
        // The buffer closure rethrows untyped errors: the typed one travels as a Result.
        let got = bytes.withUnsafeMutableBytes { buffer in
            Result { () throws(RegularFile.Failure) in try read(into: buffer, at: offset) }
        }
        bytes.removeLast(bytes.count - (try got.get()))
        return bytes
    }

    /// Tells the kernel the reads will jump about (posix_fadvise RANDOM): no read-ahead of pages
    /// a binary search never looks at. Advice only; a kernel that ignores it changes nothing.
    public func adviseRandomAccess() {
        _ = posix_fadvise(descriptor.rawValue, 0, 0, POSIX_FADV_RANDOM)
    }

    /// Drops the file's pages from the page cache (posix_fadvise DONTNEED), for a benchmark that
    /// wants the next reads cold without root's drop_caches. Advice only: pages another process
    /// holds mapped, or dirty ones, stay.
    public func dropCachedPages() {
        _ = posix_fadvise(descriptor.rawValue, 0, 0, POSIX_FADV_DONTNEED)
    }
}
