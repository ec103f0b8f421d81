import TUI
import VaultModel

/// An in-memory terminal for tests: keys are scripted, every presented frame is recorded.
/// Whole flows (unlock, list, filter, choose) run against it exactly as against ncurses.
public final class GridTerminal: Terminal {
    public private(set) var size: TerminalSize
    public private(set) var frames: [Canvas] = []
    private var script: [TerminalEvent]

    /// Raised when a flow asks for more input than the script has: the test forgot a key or the
    /// flow did not finish when it should have.
    public struct ScriptExhausted: Error, Equatable, ExitStatusReporting {
        /// A test's mistake, not a user's: a bug's code.
        public var exitStatus: ExitStatus { .internalError }
    }

    public init(size: TerminalSize = TerminalSize(rows: 24, columns: 80), script: [TerminalEvent] = []) {
        self.size = size
        self.script = script
    }

    public func enqueue(_ events: TerminalEvent...) {
        script += events
    }

    public func enqueue(typing text: String) {
        script += text.unicodeScalars.map { .key(.text($0)) }
    }

    public func nextEvent() throws -> TerminalEvent {
        guard !script.isEmpty else { throw ScriptExhausted() }
        let event = script.removeFirst()
        if case .resize(let newSize) = event { size = newSize }
        return event
    }

    public func present(_ canvas: Canvas) throws {
        frames.append(canvas)
    }

    public var lastFrame: Canvas? { frames.last }

    /// The theme the flow asked for last.
    public private(set) var theme = Theme.standard

    public func use(_ theme: Theme) {
        self.theme = theme
    }

    /// Whether the flow gave the terminal back (a command must, on every path).
    public private(set) var isClosed = false

    public func close() {
        isClosed = true
    }
}
