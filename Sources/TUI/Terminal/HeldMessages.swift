import FoundationEssentials
import Platform
import UnicodeText

/// Lines for standard error, held back while a full-screen terminal is open.
///
/// ncurses owns the terminal between `newterm` and `endwin`: a byte written to stderr then lands
/// in the middle of its screen (a theme warning garbled the wizard), and ncurses, which does not
/// know it is there, never repairs it. So while any `NcursesTerminal` is open, `say` keeps each
/// line, and the last terminal to close writes them in order, after `endwin`, where the person
/// reads them on the shell's own screen. Everything the program says on stderr goes through here
/// (`shared`); tests make their own with a `write` that records.
public final class HeldMessages: @unchecked Sendable {
    // @unchecked: every mutable field is guarded by `lock`.
    public static let shared = HeldMessages()

    private let lock = Lock()
    private var holders = 0
    private var held: [String] = []
    private let write: @Sendable (String) -> Void

    public init(write: @escaping @Sendable (String) -> Void = HeldMessages.writeToStandardError) {
        self.write = write
    }

    /// Writes `line` (a newline is added) now, or when the terminal is given back.
    public func say(_ line: String) {
        let line = PrintableText.message(line)
        lock.lock()
        if holders > 0 {
            held.append(line)
            lock.unlock()
            return
        }
        lock.unlock()
        write(line)
    }

    /// A full-screen terminal opened: hold lines until it closes.
    public func hold() {
        lock.lock()
        holders += 1
        lock.unlock()
    }

    /// A full-screen terminal closed: when it was the last, write what was held.
    public func release() {
        lock.lock()
        holders = max(holders - 1, 0)
        let lines = holders == 0 ? held : []
        if holders == 0 { held = [] }
        lock.unlock()
        for line in lines { write(line) }
    }

    public var isHolding: Bool {
        lock.lock()
        defer { lock.unlock() }
        return holders > 0
    }

    /// A closed or broken stderr loses the line: there is nowhere left to say so.
    public static func writeToStandardError(_ line: String) {
        try? FileDescriptor.standardError.writeAll(line + "\n")
    }
}
