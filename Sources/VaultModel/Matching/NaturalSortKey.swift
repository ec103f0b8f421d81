import FoundationEssentials
import Glibc
import UnicodeText

// Natural order of titles, as file managers sort: "Server 2" before "Server 10" before
// "Server 100", "apple" before "Banana", "Émile" among the E's. One order for every list pwtui
// shows — `pwtui list`, the picker's "all credentials" and "other credentials" sections, and
// ties in a ranking — so a title is found in the same place everywhere.
//
// The comparison is made once per title, not once per sort step: a key of bytes that compare
// lexicographically. The title is folded (case, diacritics, fullwidth forms: "ＡＢ１" is "ab1"),
// and each run of digits is written as a marker byte, the number of its significant digits (four
// bytes, big-endian) and those digits, leading zeros dropped. The marker is "0" itself, the byte
// a digit would have had, so a number sorts against letters and punctuation where its first
// digit would; two numbers at the same place meet marker to marker and compare by length first,
// then digit by digit — by value, with no limit on length. Titles the folded key cannot tell
// apart ("a1" and "A1", "07" and "7") are then ordered by their text's scalars, so the order is
// total and does not depend on where the credentials were in the vault.
//
// Plain comparison of localizedStandardCompare is natural too, but it depends on the locale and
// costs a Foundation call per comparison: sorting 100,000 titles made millions of them.

/// A title's place in natural order (see above). Build it once per title and sort by it.
public struct NaturalSortKey: Comparable, Hashable, Sendable {
    private let folded: [UInt8]
    private let text: String

    public init(_ text: String) {
        self.text = text
        folded = Self.fold(text)
    }

    public static func < (a: NaturalSortKey, b: NaturalSortKey) -> Bool {
        compare(a, b) < 0
    }

    public static func == (a: NaturalSortKey, b: NaturalSortKey) -> Bool {
        compare(a, b) == 0
    }

    /// Negative, zero or positive as `a` comes before, with or after `b`: one pass, where `<`
    /// then `==` would make two. Sorting 10,000 credentials that all share a site compares their
    /// titles about 140,000 times.
    public static func compare(_ a: NaturalSortKey, _ b: NaturalSortKey) -> Int {
        let folded = a.folded.withUnsafeBytes { left in
            b.folded.withUnsafeBytes { right -> Int in
                let common = min(left.count, right.count)
                if common > 0, let l = left.baseAddress, let r = right.baseAddress {
                    let order = memcmp(l, r, common)
                    if order != 0 { return Int(order) }
                }
                return left.count - right.count
            }
        }
        if folded != 0 { return folded }
        if a.text.unicodeScalars.elementsEqual(b.text.unicodeScalars) { return 0 }
        return a.text.unicodeScalars.lexicographicallyPrecedes(b.text.unicodeScalars) { $0.value < $1.value } ? -1 : 1
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(folded)
    }

    /// Whether `a` comes before `b` in natural order.
    public static func areInIncreasingOrder(_ a: String, _ b: String) -> Bool {
        NaturalSortKey(a) < NaturalSortKey(b)
    }

    private static let digitMarker = UInt8(ascii: "0")

    private static func fold(_ text: String) -> [UInt8] {
        // Most titles are ASCII: lowercasing bytes is all their folding needs, without Foundation.
        let isASCII = text.utf8.allSatisfy { $0 < 0x80 }
        let folded = isASCII ? text : text.foldedForComparison
        // One pass and one allocation: a key is built for every credential a ranking sorts (all
        // 10,000 when they share a site), so it must cost little more than the bytes themselves.
        return folded.utf8.withContiguousStorageIfAvailable { appendKey(of: $0) } ?? appendKey(of: Array(folded.utf8))
    }

    private static func appendKey<Bytes: RandomAccessCollection<UInt8>>(of bytes: Bytes) -> [UInt8]
    where Bytes.Index == Int {
        var key: [UInt8] = []
        key.reserveCapacity(bytes.count + 8)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else {
                key.append(byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 0x20 : byte)
                index += 1
                continue
            }
            var end = index
            while end < bytes.endIndex, bytes[end] >= UInt8(ascii: "0"), bytes[end] <= UInt8(ascii: "9") { end += 1 }
            var first = index
            while first < end - 1, bytes[first] == UInt8(ascii: "0") { first += 1 }  // "0" alone stays
            let count = UInt32(clamping: end - first)
            key.append(digitMarker)
            key.append(contentsOf: [
                UInt8(truncatingIfNeeded: count >> 24), UInt8(truncatingIfNeeded: count >> 16),
                UInt8(truncatingIfNeeded: count >> 8), UInt8(truncatingIfNeeded: count),
            ])
            key.append(contentsOf: bytes[first ..< end])
            index = end
        }
        return key
    }
}
