#if canImport(Glibc)
    import Glibc
#endif

// flock(2) has no timeout, and a lock another user's process holds in a shared directory may
// never be let go: a wait must end. Polling with LOCK_NB would end it, but a poller is not a
// waiter (it never queues, so a steady stream of savers can starve it, and /proc/locks does not
// show it waiting, which the concurrency tests rely on). So the blocking flock runs on a thread
// of its own, on a duplicate of the descriptor, and the caller waits for it until the deadline.
//
// A duplicate shares the open file description, which is what holds a flock: the lock the
// thread takes is the caller's, and closing the duplicate right after keeps it. When the
// deadline passes first, the caller gives up and closes its descriptor; the thread, when (if)
// it gets the lock, closes the duplicate, the description's last reference, and so releases it.

extension FileDescriptor {
    /// An exclusive flock, waited for until `deadline` (then `SystemError.timedOut`); released
    /// when the descriptor is closed (or the process dies: a kill -9 never leaves it stuck).
    public func lockExclusively(before deadline: Deadline) throws(SystemError) {
        // Free: taken at once, no thread.
        while flock(rawValue, LOCK_EX | LOCK_NB) != 0 {
            if errno == EINTR { continue }
            guard errno == EWOULDBLOCK else { throw .current }
            return try waitForLock(before: deadline)
        }
    }

    private func waitForLock(before deadline: Deadline) throws(SystemError) {
        let copy = fcntl(rawValue, F_DUPFD_CLOEXEC, 0)
        guard copy >= 0 else { throw .current }
        let wakeUp: (reading: FileDescriptor, writing: FileDescriptor)
        do {
            wakeUp = try FileDescriptor.pipe()
        } catch {
            _ = Glibc.close(copy)
            throw error
        }
        let wait = LockWait(reading: wakeUp.reading)
        do {
            try DetachedThread.start {
                var code: Int32 = 0
                while flock(copy, LOCK_EX) != 0 {
                    if errno == EINTR { continue }
                    code = errno
                    break
                }
                _ = Glibc.close(copy)
                wait.finish(code, writing: wakeUp.writing)
            }
        } catch {
            _ = Glibc.close(copy)
            wakeUp.reading.close()
            wakeUp.writing.close()
            throw error
        }
        var byte: UInt8 = 0
        _ = try? withUnsafeMutableBytes(of: &byte) { (buffer) throws(SystemError) in
            try wakeUp.reading.readSome(into: buffer, before: deadline)
        }
        if let code = wait.outcomeOrAbandon() {
            guard code == 0 else { throw SystemError(code: code) }
            return
        }
        throw .timedOut
    }
}

/// What the locking thread and its caller share: whether the flock returned (and how), and
/// whether the caller stopped waiting. Whoever comes second closes the wake-up pipe's reading end.
private final class LockWait: @unchecked Sendable {
    // @unchecked: every field is guarded by `lock`.
    private let lock = Lock()
    private var code: Int32?
    private var abandoned = false
    private let reading: FileDescriptor

    init(reading: FileDescriptor) {
        self.reading = reading
    }

    /// The thread's flock returned with `code` (0: locked).
    func finish(_ code: Int32, writing: FileDescriptor) {
        lock.lock()
        self.code = code
        if abandoned {
            reading.close()
        } else {
            // The caller still waits (its end is open until it sees `code`): wake it.
            try? writing.writeAll([1])
        }
        writing.close()
        lock.unlock()
    }

    /// The flock's result when it has returned; otherwise nil, and the thread is left to clean up.
    func outcomeOrAbandon() -> Int32? {
        lock.lock()
        defer { lock.unlock() }
        if let code {
            reading.close()
            return code
        }
        abandoned = true
        return nil
    }
}
