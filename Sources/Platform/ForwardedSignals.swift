internal import CSystem
#if canImport(Glibc)
    import Glibc
#endif

/// The signals a process that runs another one in its place (`pwtui run`) passes on to it:
/// `kill pwtui-pid` reaches the child as it would had the child been started directly. What the
/// terminal sends (Ctrl-C, Ctrl-\, a hangup, a resize) reached the child already, since it is in
/// the same foreground process group, and is not sent twice (see the shim).
public enum ForwardedSignals {
    /// The ones passed on: termination, interruption, hangup, quit, the two user signals, and a
    /// resize (a parent may send SIGWINCH itself after resizing a pty).
    public static let numbers: [Int32] = [SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2, SIGWINCH]

    /// Starts catching them for forwarding (this process no longer ends or stops on them).
    public static func watch() throws(SystemError) {
        for number in numbers where pwtui_watch_forwarded_signal(number) != 0 { throw .current }
    }

    /// Sends each signal caught since the last call to process `id`.
    public static func forward(to id: Int32) {
        while case let number = pwtui_take_forwarded_signal(), number != 0 { _ = kill(id, number) }
    }

    /// Ends this process as `ending` says the child ended: with its status, or killed by the
    /// same signal (the shell then reports it as it would the child's), 128 + the signal if the
    /// signal does not kill.
    public static func end(like ending: ChildProcess.Ending) -> Never {
        switch ending {
        case .exited(let status):
            CurrentProcess.exit(status)
        case .killed(let signal):
            pwtui_die_of_signal(signal)
            CurrentProcess.exit(128 + signal)
        }
    }
}
