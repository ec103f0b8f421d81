internal import CSystem
#if canImport(Glibc)
    import Glibc
#endif

/// SIGTERM, SIGHUP and SIGINT turned into a flag that a loop looks at (the agent's accept loop,
/// the picker's key loop), instead of a handler that would have to clean up from inside a
/// signal: the loop restores the terminal or removes the socket, then leaves. One per process.
public enum SignalFlag {
    /// Starts turning the three into `received`, unblocking them (a blocked mask is inherited
    /// through fork and exec), and ignores SIGPIPE (a write to a closed pipe is an error to
    /// report). Replaces ncurses' own handlers when called after it starts.
    public static func watchTermination() {
        pwtui_watch_termination_signals()
    }

    /// The last of the three that arrived since watching began, or nil.
    public static var received: Signal? {
        let number = pwtui_received_signal()
        return number == 0 ? nil : Signal(rawValue: number)
    }

    /// Forgets a signal that was received (for a process that handled it and goes on; tests).
    public static func clear() {
        pwtui_clear_received_signal()
    }

    /// SIGWINCH back to its default and unblocked, so ncurses, which catches it only then,
    /// hears resizes even when a parent ignored or blocked it.
    public static func restoreWindowChange() {
        pwtui_default_sigwinch()
    }
}

/// The signals pwtui names, with their numbers (for exit codes: 128 + number).
public struct Signal: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int32

    public init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    public static let hangUp = Signal(rawValue: SIGHUP)
    public static let interrupt = Signal(rawValue: SIGINT)
    public static let terminate = Signal(rawValue: SIGTERM)

    public var description: String { "\(rawValue)" }

    /// Sends it to this process (for tests of the handlers).
    public func raise() {
        _ = Glibc.raise(rawValue)
    }
}
