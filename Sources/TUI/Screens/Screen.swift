/// A screen is a value: a `TerminalEvent` in, a `Transition` out, and a frame drawn from its state
/// alone. One run loop (`Terminal.run`) drives every screen, so drawing, reading keys and the
/// "terminal too small" rule live in one place and each screen holds only what it shows.
///
/// State changes only in `handle` (and `work`, the slow step a screen asked for): `render` may be
/// called any number of times, at any size, and draws the same frame for the same state. A
/// screen's dependencies (how to unlock, how to measure, how to load a theme) are given to it when
/// it is made; nothing outside sets its fields while it runs.
public protocol Screen {
    /// What the screen answers with when it finishes (a chosen id, the wizard's choices).
    associatedtype Result

    /// The smallest terminal the screen is drawn in; below it the run loop shows
    /// `TooSmallNotice` instead and lets only the keys that notice allows reach the screen.
    var minimumSize: TerminalSize { get }

    /// What to do before the first key: `.work` when the screen opens on slow work (the
    /// configuration screen measuring the unlock cost), else `.stay`.
    var opening: Transition<Result> { get }

    mutating func handle(_ event: TerminalEvent, context: ScreenContext) -> Transition<Result>

    /// The slow work the screen asked for with `.work`, run after a frame that says it runs (so
    /// a person waiting on Argon2id sees why). Keys typed meanwhile wait in the terminal.
    mutating func work() throws -> Transition<Result>

    func render(into canvas: inout Canvas)
}

extension Screen {
    public var opening: Transition<Result> { .stay }

    public mutating func work() throws -> Transition<Result> { .stay }

    /// The frame the run loop presents at `size`: the screen, or the notice when it does not fit.
    public func frame(at size: TerminalSize) -> Canvas {
        var canvas = Canvas(size: size)
        if !TooSmallNotice(minimum: minimumSize).draw(into: &canvas) { render(into: &canvas) }
        return canvas
    }
}

/// What a screen knows of its surroundings when it handles an event: the terminal's size now
/// (which its layout, and so its page size, depends on).
public struct ScreenContext: Equatable, Sendable {
    public var size: TerminalSize

    public init(size: TerminalSize) {
        self.size = size
    }
}
