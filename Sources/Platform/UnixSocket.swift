#if canImport(Glibc)
    import Glibc
#endif
internal import CSystem

/// Unix stream sockets, for the agent: listening (mode 0600, so only this user can connect),
/// connecting, accepting, and knowing who is at the other end. The descriptors are plain
/// `FileDescriptor`s, close-on-exec from the start.
public enum UnixSocket {
    /// A socket listening at `path` with `permissions` (0600: the directory's 0700 is the real
    /// fence, this one the second). The caller removes `path` when it stops listening.
    public static func listen(at path: String, permissions: UInt32 = 0o600) throws(SystemError) -> FileDescriptor {
        let fd = pwtui_unix_socket(path, 1)
        guard fd >= 0 else { throw .current }
        do {
            try FileSystem.setPermissions(path, to: permissions)
        } catch {
            Glibc.close(fd)
            try? FileSystem.remove(path)
            throw error
        }
        return FileDescriptor(rawValue: fd)
    }

    /// A connection to the socket at `path`.
    public static func connect(to path: String) throws(SystemError) -> FileDescriptor {
        let fd = pwtui_unix_socket(path, 0)
        guard fd >= 0 else { throw .current }
        return FileDescriptor(rawValue: fd)
    }

    /// Two connected ends of a new stream socket (close-on-exec): a connection without a path,
    /// for serving a client in the same process.
    public static func pair() throws(SystemError) -> (FileDescriptor, FileDescriptor) {
        var ends: [Int32] = [0, 0]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0 else { throw .current }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        return (FileDescriptor(rawValue: ends[0]), FileDescriptor(rawValue: ends[1]))
    }

    /// The next connection waiting on `listener`, close-on-exec; nil when none came within
    /// `time` (or it went away before it was taken: the caller just waits again).
    public static func accept(on listener: FileDescriptor, waitingAtMost time: Duration) throws(SystemError)
        -> FileDescriptor?
    {
        do {
            try listener.wait(for: .input, before: .after(time))
        } catch  where error.isTimeout {
            return nil
        }
        let fd = pwtui_accept(listener.rawValue)
        guard fd >= 0 else {
            // The peer gave up between poll and accept, or a signal came: nothing to take.
            if [EAGAIN, EWOULDBLOCK, ECONNABORTED, EINTR, EPROTO].contains(errno) { return nil }
            throw .current
        }
        return FileDescriptor(rawValue: fd)
    }
}

extension FileDescriptor {
    /// The uid of the process at the other end of a connected Unix socket (SO_PEERCRED); nil
    /// when it cannot be known.
    public var peerUserID: UInt32? {
        let uid = pwtui_peer_uid(rawValue)
        return uid >= 0 ? UInt32(uid) : nil
    }

    /// The pid of the process at the other end of a connected Unix socket (SO_PEERCRED), as
    /// it was when it connected; nil when it cannot be known.
    public var peerProcessID: Int32? {
        let pid = pwtui_peer_pid(rawValue)
        return pid > 0 ? Int32(pid) : nil
    }

    /// All of `bytes` to a socket, before `deadline` (then `SystemError.timedOut`). MSG_NOSIGNAL:
    /// a peer that went away is an error to report (EPIPE), not a SIGPIPE that kills the process
    /// without a word. MSG_DONTWAIT: the deadline is poll's to keep, never a blocked send's.
    public func sendAll(_ bytes: UnsafeRawBufferPointer, before deadline: Deadline) throws(SystemError) {
        guard let base = bytes.baseAddress else { return }
        var offset = 0
        while offset < bytes.count {
            try wait(for: .output, before: deadline)
            let sent = send(rawValue, base + offset, bytes.count - offset, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
            if sent < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw .current
            }
            guard sent > 0 else { throw .inputOutput }
            offset += sent
        }
    }

    public enum ShutdownDirection: Sendable {
        /// The peer reads the end of the stream; this side can still read.
        case sending
        /// Both: a thread blocked reading it returns at once.
        case both
    }

    /// shutdown(2); failures (a socket already gone) are of no consequence and ignored.
    public func shutdown(_ direction: ShutdownDirection) {
        _ = Glibc.shutdown(rawValue, Int32(direction == .sending ? SHUT_WR : SHUT_RDWR))
    }
}
