import Foundation
import Platform
import PwtuiTestSupport
import Testing
@testable import Interchange

/// Times as exports write them, read by hand, checked against Foundation's own ISO 8601 reader
/// on generated dates (every month length, leap years, offsets, fractions).
@Suite("Times in exports")
struct ImportedTimeTests {
    @Test("generated ISO 8601 times read as Foundation reads them")
    func againstFoundation() throws {
        var random = SeededGenerator(seed: 8601)
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        for _ in 0 ..< 2000 {
            let seconds = Int64.random(in: -2_000_000_000 ... 8_000_000_000, using: &random)
            let offset = Int.random(in: -14 ... 14, using: &random) * 1800
            formatter.timeZone = TimeZone(secondsFromGMT: offset)
            let text = formatter.string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
            #expect(ImportedTime.iso8601(text) == Timestamp(millisecondsSince1970: seconds * 1000), "\(text)")
        }
    }

    @Test("fractions, no zone, a space, lower-case z; garbage refused")
    func forms() {
        #expect(ImportedTime.iso8601("2024-02-29T23:59:59.123Z")?.description == "2024-02-29T23:59:59.123Z")
        #expect(ImportedTime.iso8601("2023-03-01T12:30:45.1234567Z")?.description == "2023-03-01T12:30:45.123Z")
        #expect(ImportedTime.iso8601(" 2023-01-01 00:00:00 ")?.description == "2023-01-01T00:00:00.000Z")
        #expect(ImportedTime.iso8601("2023-01-01t01:00:00+0100")?.description == "2023-01-01T00:00:00.000Z")
        #expect(ImportedTime.iso8601("2023-01-01T00:00:00z")?.description == "2023-01-01T00:00:00.000Z")
        for bad in [
            "", "2023-13-01T00:00:00Z", "2023-01-01", "2023-01-01T00:00Z", "yesterday", "2023-01-01T00:00:00Zjunk",
            "2023-01-01T25:00:00Z",
        ] {
            #expect(ImportedTime.iso8601(bad) == nil, "\(bad)")
        }
    }

    @Test("milliseconds since 1970 (Firefox) and KeePass's base64 seconds since the year 1")
    func otherForms() {
        #expect(ImportedTime.epochMilliseconds("1609459200000")?.description == "2021-01-01T00:00:00.000Z")
        #expect(ImportedTime.epochMilliseconds("-5") == nil)
        #expect(ImportedTime.keePassBinary("oITh2w4AAAA=")?.description == "2023-05-01T10:00:00.000Z")
        #expect(ImportedTime.keePassBinary("not base64") == nil)
    }

    @Test(
        "KeePass times and 1Password's seconds too large for milliseconds are dropped, not a crash (the fuzzer's find)")
    func outOfRange() {
        // 0x0040_000E_DBE1_84A0 seconds: after the year 1's offset, times 1000 is past Int64.
        #expect(ImportedTime.keePassBinary("oITh2w4AQAA=") == nil)
        #expect(ImportedTime.keePassBinary("AAAAAAAAAIA=") == nil, "Int64.min: the subtraction overflows")
        #expect(ImportedTime.keePassBinary("/////////38=") == nil, "Int64.max")
        #expect(ImportedTime.unixSeconds(Int64.max) == nil && ImportedTime.unixSeconds(Int64.max / 1000 + 1) == nil)
        #expect(ImportedTime.unixSeconds(Int64.max / 1000)?.millisecondsSince1970 == Int64.max / 1000 * 1000)
        #expect(ImportedTime.unixSeconds(0) == nil && ImportedTime.unixSeconds(-1) == nil)
        #expect(ImportedTime.unixSeconds(1_700_000_000)?.description == "2023-11-14T22:13:20.000Z")
        // Any eight bytes: a time or nil, never a trap.
        var generator = SeededGenerator(seed: 27)
        for _ in 0 ..< 5000 {
            let bytes = (0 ..< 8).map { _ in UInt8.random(in: 0 ... 255, using: &generator) }
            _ = ImportedTime.keePassBinary(Data(bytes).base64EncodedString())
        }
    }
}
