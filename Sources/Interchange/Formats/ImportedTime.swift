import FoundationEssentials
import Platform

/// The ways exports write a time, read into a `Timestamp`. A time that does not read is dropped
/// (the credential gets the import's time), never a reason to refuse the entry.
enum ImportedTime {
    /// ISO 8601 as Bitwarden (`2024-01-31T09:30:00.123Z`), KeePassXC and KeePass write it:
    /// a date, `T` or a space, a time with optional fractions, then `Z`, an offset, or nothing
    /// (taken as UTC). Read by hand: Foundation's ISO8601DateFormatter builds an ICU formatter
    /// per call, and 10,000 entries with three times each spent 12 s in it.
    static func iso8601(_ text: String) -> Timestamp? {
        var bytes = Array(text.utf8)
        while let last = bytes.last, last == 0x20 || last == 0x09 { bytes.removeLast() }
        var index = bytes.firstIndex { $0 != 0x20 && $0 != 0x09 } ?? bytes.count
        func number(_ digits: Int) -> Int? {
            guard index + digits <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[index ..< index + digits] {
                guard (0x30 ... 0x39).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            index += digits
            return value
        }
        func skip(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }
        guard let year = number(4), skip(0x2D), let month = number(2), skip(0x2D), let day = number(2),
            (1 ... 12).contains(month), (1 ... 31).contains(day)
        else { return nil }
        guard index < bytes.count, bytes[index] == 0x54 || bytes[index] == 0x20 || bytes[index] == 0x74 else {
            return nil
        }
        index += 1
        guard let hour = number(2), skip(0x3A), let minute = number(2), skip(0x3A), let second = number(2),
            hour < 24, minute < 60, second < 61
        else { return nil }
        var milliseconds = 0
        if skip(0x2E) || skip(0x2C) {
            var scale = 100
            let start = index
            while index < bytes.count, (0x30 ... 0x39).contains(bytes[index]) {
                milliseconds += Int(bytes[index] - 0x30) * scale
                scale /= 10
                index += 1
            }
            guard index > start else { return nil }
        }
        var offsetMinutes = 0
        if index < bytes.count {
            if bytes[index] == 0x5A || bytes[index] == 0x7A {
                index += 1
            } else if bytes[index] == 0x2B || bytes[index] == 0x2D {
                let sign = bytes[index] == 0x2D ? -1 : 1
                index += 1
                guard let hours = number(2) else { return nil }
                _ = skip(0x3A)
                guard let minutes = number(2) else { return nil }
                offsetMinutes = sign * (hours * 60 + minutes)
            }
        }
        guard index == bytes.count else { return nil }
        let seconds =
            daysSince1970(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second
            - offsetMinutes * 60
        return Timestamp(millisecondsSince1970: Int64(seconds) * 1000 + Int64(milliseconds))
    }

    /// Days from 1970-01-01 to a date of the proleptic Gregorian calendar (Howard Hinnant's
    /// days_from_civil: March-based years make the leap day the last of the year).
    static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// Milliseconds since 1970, as Firefox writes them.
    static func epochMilliseconds(_ text: String) -> Timestamp? {
        guard let value = Int64(text.trimmingSpaces()), value > 0 else { return nil }
        return Timestamp(millisecondsSince1970: value)
    }

    /// Either of the above, whichever the text is.
    static func any(_ text: String) -> Timestamp? {
        epochMilliseconds(text) ?? iso8601(text)
    }

    /// KeePass 2.x in a KDBX 4 XML: base64 of the seconds since 0001-01-01 UTC, little-endian.
    static func keePassBinary(_ text: String) -> Timestamp? {
        guard let data = Data(base64Encoded: text.trimmingSpacesAndNewlines()), data.count == 8 else { return nil }
        let seconds = data.reversed().reduce(Int64(0)) { $0 << 8 | Int64($1) }
        // 62,135,596,800 seconds from 0001-01-01 to 1970-01-01. Any 8 bytes can be written there,
        // the most negative number too: the arithmetic checks its overflow (`unixSeconds`).
        let (unix, overflow) = seconds.subtractingReportingOverflow(62_135_596_800)
        return overflow ? nil : unixSeconds(unix)
    }

    /// Seconds since 1970 as a `Timestamp`; nil for none after 1970, or one too far off to count
    /// in milliseconds (an export's number is whatever its writer, or an attacker, put there: a
    /// multiplication that overflows would stop pwtui, as the fuzzer found).
    static func unixSeconds(_ seconds: Int64) -> Timestamp? {
        let (milliseconds, overflow) = seconds.multipliedReportingOverflow(by: 1000)
        guard seconds > 0, !overflow else { return nil }
        return Timestamp(millisecondsSince1970: milliseconds)
    }
}
