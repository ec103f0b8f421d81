import FoundationEssentials

// An id's text (`uuidString`, lower-cased where users see it) answers two questions on hot paths:
// which of two ids comes first (the last tie-break of every list) and whether an id starts with
// what the user typed (`get --id 3f2a`, `IDPrefix`). Making the text formats it with sprintf; across 10,000
// credentials that was two thirds of a `get` whose credentials all matched equally well, and
// most of a `get --id`. Both answers come from the bytes instead: the text is the bytes' hex
// digits in order, at a fixed width, with hyphens at fixed places.

extension UUID {
    /// Whether this id's text comes before `other`'s: the hex digits stand for the bytes in
    /// order, so the bytes compare the same way.
    func precedes(_ other: UUID) -> Bool {
        withUnsafeBytes(of: uuid) { mine in
            withUnsafeBytes(of: other.uuid) { theirs in
                for (a, b) in zip(mine, theirs) where a != b { return a < b }
                return false
            }
        }
    }

}

/// What a user typed of an id (`3f2a`, `3f2a9b1c-04`), read once into the bits of the id it fixes:
/// an id's lower-case text starts with it when those bits agree, two comparisons of 64 bits. Its
/// text walked digit by digit for every credential took 4.5 ms of a `get --id` at 100,000
/// credentials (peers.py), twice the rest of it.
public struct IDPrefix: Sendable {
    private var value: (high: UInt64, low: UInt64) = (0, 0)
    private var mask: (high: UInt64, low: UInt64) = (0, 0)

    /// Nil when no id's text starts with `text`: a character that is no lower-case hex digit, a
    /// hyphen out of its place, more than an id's 36 characters.
    public init?(_ text: String) {
        var nibble = 0
        for (position, character) in text.utf8.enumerated() {
            if position == 8 || position == 13 || position == 18 || position == 23 {
                guard character == UInt8(ascii: "-") else { return nil }
                continue
            }
            guard nibble < 32, let digit = Self.digit(character) else { return nil }
            let shift = UInt64(60 - 4 * (nibble % 16))
            if nibble < 16 {
                value.high |= digit << shift
                mask.high |= 0xF << shift
            } else {
                value.low |= digit << shift
                mask.low |= 0xF << shift
            }
            nibble += 1
        }
    }

    /// Whether `id`'s lower-case text starts with this prefix.
    public func matches(_ id: UUID) -> Bool {
        let halves = withUnsafeBytes(of: id.uuid) { bytes in
            (
                high: UInt64(bigEndian: bytes.loadUnaligned(as: UInt64.self)),
                low: UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
            )
        }
        return halves.high & mask.high == value.high && halves.low & mask.low == value.low
    }

    private static func digit(_ character: UInt8) -> UInt64? {
        switch character {
        case UInt8(ascii: "0") ... UInt8(ascii: "9"): UInt64(character - UInt8(ascii: "0"))
        case UInt8(ascii: "a") ... UInt8(ascii: "f"): UInt64(character - UInt8(ascii: "a") + 10)
        default: nil
        }
    }
}
