/// What a screen shows, and accepts, when the terminal is smaller than it needs.
///
/// Below its minimum size a screen draws only "Terminal too small", so the person sees neither
/// the list nor the field the other keys would act on: Enter would choose a credential they never
/// saw, typing would fill a field they cannot see. So there only Esc and Ctrl-C act (a resize
/// redraws); every other key is dropped. The run loop (`Terminal.run`) applies this for every
/// screen, from the frame it last drew, because what counts is what the person saw.
public struct TooSmallNotice: Sendable, Equatable {
    public let minimum: TerminalSize

    public init(minimum: TerminalSize) {
        self.minimum = minimum
    }

    public func fits(_ size: TerminalSize) -> Bool {
        size.rows >= minimum.rows && size.columns >= minimum.columns
    }

    /// Draws the notice when `canvas` is too small; true when it did (draw nothing else then).
    public func draw(into canvas: inout Canvas) -> Bool {
        guard !fits(canvas.size) else { return false }
        canvas.put("Terminal too small", row: 0, column: 0, role: .error)
        canvas.put("need \(minimum), have \(canvas.size)", row: 1, column: 0, role: .dim)
        canvas.put("Esc cancels", row: 2, column: 0, role: .dim)
        return true
    }

    /// Whether `event` may act while the notice is shown: a resize, Esc or Ctrl-C.
    public static func acts(_ event: TerminalEvent) -> Bool {
        switch event {
        case .resize, .key(.escape), .key(.control("c")): return true
        case .key, .tick: return false
        }
    }
}
