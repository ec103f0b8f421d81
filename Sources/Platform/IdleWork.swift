#if canImport(Glibc)
    import Glibc
#endif
internal import CSystem

/// Long work that must never take a core from a request (the agent's audit): run on a thread of
/// its own under the idle scheduling policy (SCHED_IDLE), while the calling thread waits for it.
/// A thread under it runs only on a core nothing else wants, and any other thread that wakes
/// takes that core at once: a `get` arriving during an audit no longer shares a core with it.
///
/// A thread of its own because the policy is one way: a thread without CAP_SYS_NICE may not
/// leave SCHED_IDLE, and the caller (a connection's thread) may serve other requests after this
/// one. The thread must not hold what others wait for (the vault's turns, its save lock): a
/// thread that runs last would hold up everyone behind it; take those before and after.
public enum IdleWork {
    private final class Job: @unchecked Sendable {
        // @unchecked: `run` is called once, on the new thread, while its creator waits in pthread_join.
        let run: () -> Void
        init(_ run: @escaping () -> Void) { self.run = run }
    }

    /// `body` on a new thread under SCHED_IDLE; its result, or its error, once it ended. Where no
    /// thread can be made, `body` runs on this one, as it is: the same answer, less politely.
    public static func run<Value>(_ body: () throws -> Value) throws -> Value {
        try withoutActuallyEscaping(body) { body in
            var outcome: Result<Value, any Error>?
            let job = Unmanaged.passRetained(
                Job {
                    // Refused (a system without the policy, a seccomp filter): the work goes on at
                    // the thread's normal priority.
                    _ = pwtui_thread_to_idle_policy()
                    outcome = Result { try body() }
                }
            ).toOpaque()
            var thread = pthread_t()
            let created = pthread_create(
                &thread, nil,
                { raw in
                    guard let raw else { return nil }
                    Unmanaged<Job>.fromOpaque(raw).takeRetainedValue().run()
                    return nil
                }, job)
            guard created == 0 else {
                Unmanaged<Job>.fromOpaque(job).release()
                return try body()
            }
            pthread_join(thread, nil)
            // Always set by then: the thread ran the job before it ended.
            guard let outcome else { throw SystemError(code: ESRCH) }
            return try outcome.get()
        }
    }

    /// Whether the calling thread runs under the idle policy.
    public static var isCurrentThreadIdle: Bool {
        pwtui_thread_has_idle_policy() == 1
    }
}
