import Platform
import TUI

/// The terminal a session may use, through its streams (`StandardStreams.TerminalAccess`): the
/// picker's screens and the no-echo prompts. A context without one (cron, CI, a test that gives
/// none) gets what a process with no terminal gets: 75 and what to do instead.
extension CommandContext {
    /// Whether screens and prompts can reach a person at all.
    public var mayUseTerminal: Bool { streams.terminal != nil }

    /// A prompt on the terminal, or nil when there is none (or this context may not use it).
    public func terminalPrompt() -> (any LinePrompt)? {
        streams.terminal?.openPrompt()
    }

    /// The full-screen terminal in the theme `theme`; 75 when there is none.
    public func openTerminal(theme: String) throws -> any Terminal {
        guard let access = streams.terminal else {
            throw CommandFailure(.interactionRequired, "no terminal for this session; use 'pwtui get' in scripts")
        }
        do {
            return try access.openScreen(ThemeLocator.current(named: theme, in: self), streams.messages, environment)
        } catch {
            throw CommandFailure(.interactionRequired, "\(error); use 'pwtui get' in scripts")
        }
    }
}
