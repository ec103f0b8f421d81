#if canImport(Glibc)
    import Glibc
#endif

/// This process: who runs it, and how it ends.
public enum CurrentProcess {
    /// The real user ID.
    public static var userID: UInt32 { getuid() }

    public static var id: Int32 { getpid() }

    /// The running executable's absolute path (what another program is told to run to reach
    /// this one: git's merge driver); argv[0] when /proc is not mounted.
    public static var executablePath: String {
        (try? FileSystem.linkDestination("/proc/self/exe")) ?? CommandLine.arguments[0]
    }

    /// Blocks this thread for `duration` (nanosleep, resumed after a signal).
    public static func sleep(for duration: Duration) {
        let (seconds, attoseconds) = duration.components
        var asked = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
        var left = timespec()
        while nanosleep(&asked, &left) == -1 && errno == EINTR { asked = left }
    }

    /// exit(3): flushes stdio and runs atexit handlers, then ends with `status`.
    public static func exit(_ status: Int32) -> Never {
        Glibc.exit(status)
    }

    /// Closes every descriptor from `first` up (1,024 is the soft limit pwtui runs under): what
    /// a long-lived child must not keep of whoever started it.
    public static func closeDescriptors(from first: Int32) {
        for fd in first ..< 1024 { _ = Glibc.close(fd) }
    }
}
