import Foundation
import Platform

/// The ways exports write a time, read into a `Timestamp`. A time that does not read is dropped
/// (the credential gets the import's time), never a reason to refuse the entry.
enum ImportedTime {
    /// ISO 8601 as Bitwarden (`2024-01-31T09:30:00.123Z`), KeePassXC and KeePass write it; a
    /// date-time without a zone is taken as UTC.
    static func iso8601(_ text: String) -> Timestamp? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { return nil }
        for format in [ISO8601DateFormatter.Options.withInternetDateTime, [.withInternetDateTime, .withFractionalSeconds],
                       [.withFullDate, .withTime, .withColonSeparatorInTime, .withDashSeparatorInDate]] {
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = format
            formatter.timeZone = TimeZone(identifier: "UTC")
            if let date = formatter.date(from: trimmed) { return timestamp(date) }
        }
        return nil
    }

    /// Milliseconds since 1970, as Firefox writes them.
    static func epochMilliseconds(_ text: String) -> Timestamp? {
        guard let value = Int64(text.trimmingCharacters(in: .whitespaces)), value > 0 else { return nil }
        return Timestamp(millisecondsSince1970: value)
    }

    /// Either of the above, whichever the text is.
    static func any(_ text: String) -> Timestamp? {
        epochMilliseconds(text) ?? iso8601(text)
    }

    /// KeePass 2.x in a KDBX 4 XML: base64 of the seconds since 0001-01-01 UTC, little-endian.
    static func keePassBinary(_ text: String) -> Timestamp? {
        guard let data = Data(base64Encoded: text.trimmingCharacters(in: .whitespacesAndNewlines)), data.count == 8 else { return nil }
        let seconds = data.reversed().reduce(Int64(0)) { $0 << 8 | Int64($1) }
        // 62,135,596,800 seconds from 0001-01-01 to 1970-01-01.
        let unix = seconds - 62_135_596_800
        guard unix > 0 else { return nil }
        return Timestamp(millisecondsSince1970: unix * 1000)
    }

    static func timestamp(_ date: Date) -> Timestamp {
        Timestamp(millisecondsSince1970: Int64((date.timeIntervalSince1970 * 1000).rounded()))
    }
}
