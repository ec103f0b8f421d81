import Platform

/// A one-line progress bar on stderr, for work long enough to wonder about (decrypting a pass
/// store runs gpg once per entry). Drawn only when stderr is a terminal and the work has at
/// least `minimumSteps` steps (fewer are over before the bar is read); redrawn only when the
/// shown percentage changes, so a fast loop does not spend its time writing to the terminal.
public final class ProgressBar {
    private let label: String
    private let output: FileDescriptor
    private let minimumSteps: Int
    private let drawn: Bool
    private var shown = -1

    /// `isTerminal`: whether `output` is one (asked of it unless a test says).
    public init(label: String, minimumSteps: Int = 50, output: FileDescriptor = .standardError, isTerminal: Bool? = nil)
    {
        self.label = label
        self.minimumSteps = minimumSteps
        self.output = output
        drawn = isTerminal ?? output.isTerminal
    }

    /// Shows `done` of `total`; at `done == total` the line is cleared.
    public func update(_ done: Int, of total: Int) {
        guard drawn, total >= minimumSteps else { return }
        if done >= total {
            try? output.writeAll("\r\u{1B}[K")
            return
        }
        let percent = done * 100 / total
        guard percent != shown else { return }
        shown = percent
        let width = 30
        let filled = done * width / total
        try? output.writeAll(
            "\r\(label) [" + String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
                + "] \(done)/\(total)")
    }
}
