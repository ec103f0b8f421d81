import Platform

/// A one-line progress bar on stderr, for work long enough to wonder about (decrypting a pass
/// store runs gpg once per entry). Drawn only when stderr is a terminal and the work has enough
/// steps; redrawn only when the shown percentage changes, so a fast loop does not spend its
/// time writing to the terminal.
public final class ProgressBar {
    private let label: String
    private let enabled: Bool
    private var shown = -1

    /// `minimumSteps`: below that, nothing is drawn (the work is over before the bar is read).
    public init(label: String, minimumSteps: Int = 50, steps: Int? = nil, output: FileDescriptor = .standardError) {
        self.label = label
        enabled = output.isTerminal && (steps ?? minimumSteps) >= minimumSteps
        self.output = output
        self.minimumSteps = minimumSteps
    }

    private let output: FileDescriptor
    private let minimumSteps: Int

    /// Shows `done` of `total`; at `done == total` the line is cleared.
    public func update(_ done: Int, of total: Int) {
        guard enabled, total >= minimumSteps else { return }
        if done >= total {
            try? output.writeAll("\r\u{1B}[K")
            return
        }
        let percent = done * 100 / max(total, 1)
        guard percent != shown else { return }
        shown = percent
        let width = 30
        let filled = done * width / max(total, 1)
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        try? output.writeAll("\r\(label) [\(bar)] \(done)/\(total)")
    }
}
