#if canImport(Glibc)
    import Glibc
#endif
internal import CSystem

/// A descriptor that is a terminal: its size as the kernel knows it, and its line discipline.
extension FileDescriptor {
    /// Rows and columns (TIOCGWINSZ); nil when it is not a terminal or is gone.
    public var terminalSize: (rows: Int, columns: Int)? {
        var rows: Int32 = 0, columns: Int32 = 0
        guard pwtui_tty_size(rawValue, &rows, &columns) == 0 else { return nil }
        return (Int(rows), Int(columns))
    }

    /// Puts the terminal in non-canonical mode, a byte at a time, without echo, signals
    /// (Ctrl-C arrives as a byte) or CR translation; returns the settings to restore.
    public func enterRawInputMode() throws(SystemError) -> TerminalSettings {
        var original = termios()
        guard tcgetattr(rawValue, &original) == 0 else { throw .current }
        var raw = original
        raw.c_lflag &= ~tcflag_t(ECHO | ECHONL | ICANON | ISIG | IEXTEN)
        raw.c_iflag &= ~tcflag_t(IXON | ICRNL)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        guard tcsetattr(rawValue, TCSAFLUSH, &raw) == 0 else { throw .current }
        return TerminalSettings(saved: original)
    }

    /// Gives the terminal back `settings` (after discarding input not yet read: keys typed
    /// into a password prompt must not reach the shell).
    public func restore(_ settings: TerminalSettings) {
        var saved = settings.saved
        tcsetattr(rawValue, TCSAFLUSH, &saved)
    }
}

/// A terminal's settings as they were, to be restored.
public struct TerminalSettings: @unchecked Sendable {
    // @unchecked: termios is a plain C struct of integers.
    let saved: termios
}
