#if canImport(Glibc)
    import Glibc
#endif

/// A mutual-exclusion lock with separate `lock()`, `unlock()` and `tryLock()` (the agent's idle
/// check only tries it), which `Synchronization.Mutex` does not offer: a pthread mutex, in place
/// of Foundation's `NSLock`.
public final class Lock: @unchecked Sendable {
    // @unchecked: the mutex is only touched through pthread calls, which synchronize themselves.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    public init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    public func lock() { pthread_mutex_lock(mutex) }

    public func unlock() { pthread_mutex_unlock(mutex) }

    /// Takes the lock if it is free; false when another thread holds it.
    public func tryLock() -> Bool { pthread_mutex_trylock(mutex) == 0 }

    /// `body` with the lock held.
    public func withLock<Result: ~Copyable>(_ body: () throws -> Result) rethrows -> Result {
        lock()
        defer { unlock() }
        return try body()
    }
}
