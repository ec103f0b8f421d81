#if canImport(Glibc)
    import Glibc
#endif

/// An open file, pipe, terminal or socket, and the one place its reads and writes are made
/// safe: a signal that interrupts a call (EINTR) retries it, a short write continues where it
/// stopped, and a wait with a `Deadline` gives up when the deadline passes, whatever happened in
/// between. Every descriptor pwtui reads or writes goes through here.
///
/// A plain value: whoever opens one closes it (`close()`), as with the system call.
public struct FileDescriptor: Sendable, Hashable {
    public let rawValue: Int32

    public init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    public static let standardInput = FileDescriptor(rawValue: 0)
    public static let standardOutput = FileDescriptor(rawValue: 1)
    public static let standardError = FileDescriptor(rawValue: 2)

    /// How to open: the access mode and flags of open(2). Close-on-exec is always added: no
    /// descriptor pwtui opens is meant for a child it starts.
    public struct OpenOptions: OptionSet, Sendable {
        public let rawValue: Int32
        public init(rawValue: Int32) { self.rawValue = rawValue }

        public static let readOnly = OpenOptions([])
        public static let writeOnly = OpenOptions(rawValue: O_WRONLY)
        public static let readWrite = OpenOptions(rawValue: O_RDWR)
        public static let create = OpenOptions(rawValue: O_CREAT)
        /// With `create`: fail when the file exists.
        public static let exclusive = OpenOptions(rawValue: O_EXCL)
        public static let truncate = OpenOptions(rawValue: O_TRUNC)
        /// Every write goes to the end of the file.
        public static let append = OpenOptions(rawValue: O_APPEND)
        /// Fail unless it is a directory.
        public static let directory = OpenOptions(rawValue: O_DIRECTORY)
        /// Opening a FIFO does not wait for the other end.
        public static let nonBlocking = OpenOptions(rawValue: O_NONBLOCK)
        /// A terminal opened does not become the controlling terminal.
        public static let noControllingTerminal = OpenOptions(rawValue: O_NOCTTY)
        /// Fail when the last component is a symbolic link.
        public static let noFollow = OpenOptions(rawValue: O_NOFOLLOW)
    }

    /// open(2), retried on EINTR (an open of a FIFO or a terminal can wait).
    public static func open(_ path: String, _ options: OpenOptions, permissions: UInt32 = 0o600) throws(SystemError)
        -> FileDescriptor
    {
        while true {
            let fd = Glibc.open(path, options.rawValue | O_CLOEXEC, mode_t(permissions))
            if fd >= 0 { return FileDescriptor(rawValue: fd) }
            if errno == EINTR { continue }
            throw .current
        }
    }

    /// Two ends of a new pipe (close-on-exec; pipe2 is _GNU_SOURCE-only, and nothing forks
    /// between the two calls in the places that use this): what is written to `writing` comes out of `reading`.
    public static func pipe() throws(SystemError) -> (reading: FileDescriptor, writing: FileDescriptor) {
        var ends: [Int32] = [0, 0]
        guard Glibc.pipe(&ends) == 0 else { throw .current }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        return (FileDescriptor(rawValue: ends[0]), FileDescriptor(rawValue: ends[1]))
    }

    /// close(2). Not retried on EINTR: on Linux the descriptor is gone either way, and a retry
    /// could close one another thread just opened.
    public func close() {
        _ = Glibc.close(rawValue)
    }

    // MARK: Reading and writing

    /// Up to `buffer.count` bytes, once some are there; 0 at the end of the input.
    public func readSome(into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> Int {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        while true {
            let got = read(rawValue, base, buffer.count)
            if got >= 0 { return got }
            if errno == EINTR { continue }
            throw .current
        }
    }

    /// As `readSome(into:)`, but waiting for input no longer than `deadline` (then
    /// `SystemError.timedOut`). Works on non-blocking descriptors too (EAGAIN waits again).
    public func readSome(into buffer: UnsafeMutableRawBufferPointer, before deadline: Deadline) throws(SystemError)
        -> Int
    {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        while true {
            try wait(for: .input, before: deadline)
            let got = read(rawValue, base, buffer.count)
            if got >= 0 { return got }
            if errno == EINTR || errno == EAGAIN { continue }
            throw .current
        }
    }

    /// One byte; nil at the end of the input. For readers that must not take a byte past what
    /// they need (a line protocol whose writer keeps the pipe open for the answer).
    public func readByte() throws(SystemError) -> UInt8? {
        var byte: UInt8 = 0
        let got = try withUnsafeMutableBytes(of: &byte) { (buffer) throws(SystemError) in try readSome(into: buffer) }
        return got == 1 ? byte : nil
    }

    /// Everything up to the end of the input (a child's messages: nothing secret, which would
    /// go to protected memory instead).
    public func readToEnd() throws(SystemError) -> [UInt8] {
        var bytes: [UInt8] = []
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 1)
        defer { chunk.deallocate() }
        while true {
            let count = try readSome(into: chunk)
            if count == 0 { return bytes }
            bytes += chunk[..<count]
        }
    }

    /// Everything up to the end of the input, when that is at most `limit` bytes; nil as soon as
    /// more comes (the rest is not read): a template on stdin is bounded as its file would be.
    public func readToEnd(atMost limit: Int) throws(SystemError) -> [UInt8]? {
        var bytes: [UInt8] = []
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 1)
        defer { chunk.deallocate() }
        while true {
            let count = try readSome(into: chunk)
            if count == 0 { return bytes }
            guard bytes.count + count <= limit else { return nil }
            bytes += chunk[..<count]
        }
    }

    /// All of `bytes`, however many writes it takes.
    public func writeAll(_ bytes: UnsafeRawBufferPointer) throws(SystemError) {
        guard let base = bytes.baseAddress else { return }
        var offset = 0
        while offset < bytes.count {
            let written = write(rawValue, base + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                throw .current
            }
            // write(2) returns 0 only for a zero-length request; never spin on it.
            guard written > 0 else { throw .inputOutput }
            offset += written
        }
    }

    public func writeAll(_ bytes: [UInt8]) throws(SystemError) {
        var failure: SystemError?
        bytes.withUnsafeBytes { buffer in
            do throws(SystemError) { try writeAll(buffer) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    public func writeAll(_ text: String) throws(SystemError) {
        var text = text
        var failure: SystemError?
        text.withUTF8 { buffer in
            do throws(SystemError) { try writeAll(UnsafeRawBufferPointer(buffer)) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    // MARK: Waiting

    public enum Readiness: Sendable {
        case input
        case output

        var events: Int16 {
            switch self {
            case .input: return Int16(POLLIN)
            case .output: return Int16(POLLOUT)
            }
        }
    }

    /// Returns once reading or writing would not block (or the peer hung up, which the read or
    /// write that follows reports); `SystemError.timedOut` when the deadline passes first.
    public func wait(for readiness: Readiness, before deadline: Deadline) throws(SystemError) {
        while true {
            var descriptor = pollfd(fd: rawValue, events: readiness.events, revents: 0)
            let ready = poll(&descriptor, 1, deadline.millisecondsLeft)
            if ready > 0 { return }
            if ready < 0 {
                if errno == EINTR { continue }
                throw .current
            }
            throw .timedOut
        }
    }

    /// Those of `descriptors` that have input (or whose writer hung up: the read that follows
    /// says so), waiting at most `milliseconds`; none after a timeout or a signal (the caller
    /// looks at what the signal asked for, then waits again).
    public static func readable(among descriptors: [FileDescriptor], waitingAtMost milliseconds: Int32)
        throws(SystemError) -> [FileDescriptor]
    {
        var polled = descriptors.map { pollfd(fd: $0.rawValue, events: Int16(POLLIN), revents: 0) }
        let ready = poll(&polled, nfds_t(polled.count), milliseconds)
        if ready < 0 {
            if errno == EINTR { return [] }
            throw .current
        }
        return zip(descriptors, polled).filter { $0.1.revents != 0 }.map(\.0)
    }

    /// Whether the other end is gone (a hang-up or an error on the descriptor): reads then fail
    /// at once, forever, and a blocked SIGHUP would never say so. Does not wait.
    public var hasHungUp: Bool {
        var descriptor = pollfd(fd: rawValue, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, 0) >= 0 else { return false }
        return descriptor.revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0
    }

    // MARK: What it is

    /// Whether it is a terminal.
    public var isTerminal: Bool { isatty(rawValue) == 1 }

    /// Whether it is open for writing only; nil when it is not open at all. Tells why a read
    /// failed with EBADF (stdout redirected to a file is write-only).
    public var isWriteOnly: Bool? {
        let flags = fcntl(rawValue, F_GETFL)
        guard flags >= 0 else { return nil }
        return flags & O_ACCMODE == O_WRONLY
    }

    /// fstat(2).
    public func status() throws(SystemError) -> FileStatus {
        var info = stat()
        guard fstat(rawValue, &info) == 0 else { throw .current }
        return FileStatus(info)
    }

    /// fsync(2): what was written survives a power cut once this returns.
    public func sync() throws(SystemError) {
        guard fsync(rawValue) == 0 else { throw .current }
    }

    /// fdatasync(2): the data written, and the size it grew to, survive a power cut once this
    /// returns (what an append needs; the times it leaves to later).
    public func syncData() throws(SystemError) {
        guard fdatasync(rawValue) == 0 else { throw .current }
    }

    /// All of `bytes` at `offset` (pwrite(2), continued after a short write), the file offset
    /// untouched.
    public func writeAll(_ bytes: UnsafeRawBufferPointer, at offset: Int) throws(SystemError) {
        guard let base = bytes.baseAddress else { return }
        var done = 0
        while done < bytes.count {
            let written = pwrite(rawValue, base + done, bytes.count - done, off_t(offset + done))
            if written < 0 {
                if errno == EINTR { continue }
                throw .current
            }
            guard written > 0 else { throw .inputOutput }
            done += written
        }
    }

    /// Up to `count` bytes at `offset` (pread(2), continued after a short read): fewer only at
    /// the end of the file.
    public func readBytes(count: Int, at offset: Int) throws(SystemError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        // The buffer closure rethrows untyped errors: the typed one travels as a Result.
        let got = bytes.withUnsafeMutableBytes { buffer in
            Result { () throws(SystemError) in try fill(buffer, at: offset) }
        }
        bytes.removeLast(count - (try got.get()))
        return bytes
    }

    /// Fills `buffer` from `offset` on, fewer bytes only at the end of the file; returns how
    /// many. pread(2), retried on EINTR and continued after a short read.
    public func fill(_ buffer: UnsafeMutableRawBufferPointer, at offset: Int) throws(SystemError) -> Int {
        guard let base = buffer.baseAddress else { return 0 }
        var filled = 0
        while filled < buffer.count {
            let got = pread(rawValue, base + filled, buffer.count - filled, off_t(offset + filled))
            if got > 0 {
                filled += got
            } else if got == 0 {
                break
            } else if errno != EINTR {
                throw .current
            }
        }
        return filled
    }

    /// ftruncate(2): the file cut (or grown with zeros) to `size` bytes.
    public func truncate(to size: Int) throws(SystemError) {
        while ftruncate(rawValue, off_t(size)) != 0 {
            guard errno == EINTR else { throw .current }
        }
    }
}
