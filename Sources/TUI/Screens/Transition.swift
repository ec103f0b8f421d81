/// What a screen asks of the run loop after an event. The effects are the few the flows need:
/// finishing with an answer, backing out, slow work shown as such, and a live theme preview.
public enum Transition<Result> {
    /// Draw again and wait for the next event.
    case stay
    /// The screen is done; the run returns `result`.
    case finish(Result)
    /// The person backed out (Esc); the run returns nil.
    case cancel
    /// Draw the screen as it is now (it says what it is waiting for), then call its `work()`.
    case work
    /// Draw from now on in this theme (the configuration screen's live preview), and stay.
    case useTheme(Theme)
}

extension Transition: Equatable where Result: Equatable {}

extension Transition: Sendable where Result: Sendable {}
