/// A moment by which a whole exchange must be over, not each read of it: a peer that trickles a
/// byte a second would reset a per-read timeout forever. Waits take what is left of it.
public struct Deadline: Sendable, Comparable {
    public let instant: ContinuousClock.Instant

    public init(_ instant: ContinuousClock.Instant) {
        self.instant = instant
    }

    /// `duration` from now.
    public static func after(_ duration: Duration) -> Deadline {
        Deadline(.now + duration)
    }

    public var hasPassed: Bool { instant <= .now }

    /// What is left, in whole milliseconds rounded up (poll's unit), 0 once passed; rounding up
    /// so that a wait never ends a moment before the deadline and then finds it not yet passed.
    var millisecondsLeft: Int32 {
        let left = instant - .now
        guard left > .zero else { return 0 }
        let (seconds, attoseconds) = left.components
        return Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1)
    }

    public static func < (a: Deadline, b: Deadline) -> Bool { a.instant < b.instant }
}
