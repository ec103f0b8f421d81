#if canImport(Glibc)
    import Glibc
#endif

/// Readers side by side, a writer alone: the agent's turns on the vault it holds.
///
/// Writers come first: once a writer waits, new readers wait behind it, so a stream of `get`s
/// never starves a save. That is only fair because every reader is short (the agent's reads are
/// bounded; long work copies what it needs and leaves the lock, docs/agent.md). A writer may
/// also wait with a time limit (`tryWrite(within:)`): a stopping agent wipes the vault if it can
/// within its second, and ends regardless.
///
/// A pthread mutex and condition variable rather than `pthread_rwlock_t`: glibc's writer
/// preference (`PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP`) is not visible from Swift's Glibc
/// module, and a timed write wait needs a monotonic clock, which the condition variable is given.
public final class ReadWriteLock: @unchecked Sendable {
    // @unchecked: the state is only touched with the mutex held.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let changed: UnsafeMutablePointer<pthread_cond_t>
    private var readers = 0
    private var writing = false
    private var waitingWriters = 0

    public init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        changed = .allocate(capacity: 1)
        changed.initialize(to: pthread_cond_t())
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(changed, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(changed)
        pthread_mutex_destroy(mutex)
        changed.deallocate()
        mutex.deallocate()
    }

    /// `body` beside other readers; waits while a writer writes or waits.
    public func read<Result: ~Copyable>(_ body: () throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        while writing || waitingWriters > 0 { pthread_cond_wait(changed, mutex) }
        readers += 1
        pthread_mutex_unlock(mutex)
        defer {
            pthread_mutex_lock(mutex)
            readers -= 1
            if readers == 0 { pthread_cond_broadcast(changed) }
            pthread_mutex_unlock(mutex)
        }
        return try body()
    }

    /// `body` alone: no reader and no other writer meanwhile.
    public func write<Result: ~Copyable>(_ body: () throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        waitingWriters += 1
        while writing || readers > 0 { pthread_cond_wait(changed, mutex) }
        waitingWriters -= 1
        writing = true
        pthread_mutex_unlock(mutex)
        defer { endWriting() }
        return try body()
    }

    /// `body` alone if the lock is free now; nil (and `body` not run) otherwise.
    public func tryWrite<Result: ~Copyable>(_ body: () throws -> Result) rethrows -> Result? {
        pthread_mutex_lock(mutex)
        guard !writing, readers == 0, waitingWriters == 0 else {
            pthread_mutex_unlock(mutex)
            return nil
        }
        writing = true
        pthread_mutex_unlock(mutex)
        defer { endWriting() }
        return try body()
    }

    /// `body` alone if the lock comes free within `time`; nil (and `body` not run) otherwise.
    public func tryWrite<Result: ~Copyable>(within time: Duration, _ body: () throws -> Result) rethrows -> Result? {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let (seconds, attoseconds) = time.components
        let nanoseconds = Int(now.tv_nsec) + Int(attoseconds / 1_000_000_000)
        var until = timespec(
            tv_sec: now.tv_sec + Int(seconds) + nanoseconds / 1_000_000_000, tv_nsec: nanoseconds % 1_000_000_000)
        pthread_mutex_lock(mutex)
        waitingWriters += 1
        while writing || readers > 0 {
            if pthread_cond_timedwait(changed, mutex, &until) == ETIMEDOUT, writing || readers > 0 {
                waitingWriters -= 1
                // Readers held back for this writer may go on.
                pthread_cond_broadcast(changed)
                pthread_mutex_unlock(mutex)
                return nil
            }
        }
        waitingWriters -= 1
        writing = true
        pthread_mutex_unlock(mutex)
        defer { endWriting() }
        return try body()
    }

    private func endWriting() {
        pthread_mutex_lock(mutex)
        writing = false
        pthread_cond_broadcast(changed)
        pthread_mutex_unlock(mutex)
    }
}
