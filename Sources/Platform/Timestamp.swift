/// Milliseconds since 1970-01-01 UTC: what the vault stores for created, modified, replaced and
/// deleted times. Millisecond resolution is enough to order edits made by hand, and an integer
/// compares exactly across machines, which last-writer-wins merging needs.
public struct Timestamp: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var millisecondsSince1970: Int64

    public init(millisecondsSince1970: Int64) {
        self.millisecondsSince1970 = millisecondsSince1970
    }

    public static func < (a: Timestamp, b: Timestamp) -> Bool {
        a.millisecondsSince1970 < b.millisecondsSince1970
    }

    /// ISO 8601 in UTC, e.g. 2026-11-21T06:13:00.123Z.
    public var description: String {
        let time = SystemClock.utc(secondsSince1970: millisecondsSince1970 / 1000)
        let millis = Int(millisecondsSince1970 % 1000)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let ms = millis < 10 ? "00\(millis)" : millis < 100 ? "0\(millis)" : "\(millis)"
        return "\(time.year)-\(two(time.month))-\(two(time.day))T"
            + "\(two(time.hour)):\(two(time.minute)):\(two(time.second)).\(ms)Z"
    }

    /// To the minute, for people: 2026-11-21 06:13 UTC (the detail screen, `show`, `history`).
    public var minuteText: String {
        let text = description
        return String(text.prefix(10)) + " " + String(text.dropFirst(11).prefix(5)) + " UTC"
    }
}

/// Where "now" comes from, so that tests can fix it.
public struct Clock: Sendable {
    public var now: @Sendable () -> Timestamp

    public init(now: @escaping @Sendable () -> Timestamp) {
        self.now = now
    }

    public static let system = Clock {
        Timestamp(millisecondsSince1970: SystemClock.millisecondsSince1970())
    }
}
