#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
        var seconds = time_t(millisecondsSince1970 / 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        let millis = Int(millisecondsSince1970 % 1000)
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let ms = millis < 10 ? "00\(millis)" : millis < 100 ? "0\(millis)" : "\(millis)"
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T"
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)).\(ms)Z"
    }
}

/// Where "now" comes from, so that tests can fix it.
public struct Clock: Sendable {
    public var now: @Sendable () -> Timestamp

    public init(now: @escaping @Sendable () -> Timestamp) {
        self.now = now
    }

    public static let system = Clock {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Timestamp(millisecondsSince1970: Int64(spec.tv_sec) * 1000 + Int64(spec.tv_nsec) / 1_000_000)
    }
}
