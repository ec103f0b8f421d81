#if canImport(Glibc)
    import Glibc
#endif

/// A thread of its own for work nobody waits for (the agent serves each connection on one):
/// pthread_create, detached, in place of Foundation's `Thread`.
public enum DetachedThread {
    private final class Work {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }

    /// Runs `body` on a new detached thread. Throws when the system will not make one (EAGAIN
    /// at the process's thread limit); `body` has not run then.
    public static func start(_ body: @escaping @Sendable () -> Void) throws(SystemError) {
        // Retained here, released by the thread once it has the closure (or below on failure).
        let work = Unmanaged.passRetained(Work(body)).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        var thread = pthread_t()
        let result = pthread_create(
            &thread, &attributes,
            { raw in
                guard let raw else { return nil }
                Unmanaged<Work>.fromOpaque(raw).takeRetainedValue().body()
                return nil
            }, work)
        guard result == 0 else {
            Unmanaged<Work>.fromOpaque(work).release()
            throw SystemError(code: result)
        }
    }
}
