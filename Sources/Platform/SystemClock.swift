#if canImport(Glibc)
    import Glibc
#endif

/// The wall clock, and a moment of it as a calendar date in UTC.
public enum SystemClock {
    /// Now, in milliseconds since 1970-01-01 UTC (CLOCK_REALTIME).
    public static func millisecondsSince1970() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Int64(spec.tv_sec) * 1000 + Int64(spec.tv_nsec) / 1_000_000
    }

    /// `seconds` since 1970 as a date and time in UTC (gmtime_r).
    public static func utc(secondsSince1970 seconds: Int64) -> CalendarTime {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        return CalendarTime(
            year: Int(parts.tm_year) + 1900, month: Int(parts.tm_mon) + 1, day: Int(parts.tm_mday),
            hour: Int(parts.tm_hour), minute: Int(parts.tm_min), second: Int(parts.tm_sec))
    }
}

/// A date and time of day; month and day count from 1.
public struct CalendarTime: Sendable, Equatable {
    public let year, month, day, hour, minute, second: Int

    public init(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
    }
}
