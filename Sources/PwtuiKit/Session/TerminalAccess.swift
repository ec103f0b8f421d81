import Platform
import TUI

/// The terminal a session may use: the picker's screens and the no-echo prompts both open
/// /dev/tty. A session without one (`mayUseTerminal` false: tests in process, which must never
/// take over whatever terminal runs them) gets what a process with no terminal gets.
extension Session {
    /// A prompt on the terminal, or nil when there is none (or this session may not use it).
    public func terminalPrompt() -> TerminalPrompt? {
        mayUseTerminal ? TerminalPrompt() : nil
    }

    /// The full-screen terminal in the theme `theme`; 75 when there is none.
    public func openTerminal(theme: String) throws -> NcursesTerminal {
        guard mayUseTerminal else { throw CommandFailure(.interactionRequired, "no terminal for this session; use 'pwtui get' in scripts") }
        do {
            return try NcursesTerminal(theme: ThemeLocator.current(named: theme, environment: environment), environment: environment)
        } catch {
            throw CommandFailure(.interactionRequired, "\(error); use 'pwtui get' in scripts")
        }
    }
}
