import FoundationEssentials

/// A bounds-checked little-endian cursor over bytes in memory, for the formats pwtui decodes
/// itself (the vault's payload, the identity store). Offsets are absolute, so a secret's position
/// in the vault's arena is simply the cursor's position. Every read past `end` throws the
/// owner's "malformed" error instead of trapping.
struct ByteCursor {
    let bytes: UnsafeRawBufferPointer
    var position: Int
    var end: Int
    let malformed: (String) -> Error

    init(bytes: UnsafeRawBufferPointer, malformed: @escaping (String) -> Error) {
        self.bytes = bytes
        self.malformed = malformed
        position = 0
        end = bytes.count
    }

    var isAtEnd: Bool { position >= end }

    mutating func take(_ count: Int) throws -> UnsafeRawBufferPointer {
        guard count >= 0, count <= end - position else { throw malformed("a length runs past its end") }
        defer { position += count }
        return UnsafeRawBufferPointer(rebasing: bytes[position ..< position + count])
    }

    /// The next `count` bytes as a cursor of their own; this one moves past them.
    mutating func subcursor(_ count: Int) throws -> ByteCursor {
        guard count >= 0, count <= end - position else { throw malformed("a length runs past its end") }
        var sub = self
        sub.end = position + count
        position += count
        return sub
    }

    mutating func u8() throws -> UInt8 { try take(1)[0] }

    mutating func u32() throws -> UInt32 {
        UInt32(littleEndian: try take(4).loadUnaligned(as: UInt32.self))
    }

    mutating func u64() throws -> UInt64 {
        UInt64(littleEndian: try take(8).loadUnaligned(as: UInt64.self))
    }

    mutating func i64() throws -> Int64 {
        Int64(littleEndian: try take(8).loadUnaligned(as: Int64.self))
    }

    mutating func uuid() throws -> UUID {
        UUID(uuid: try take(16).loadUnaligned(as: uuid_t.self))
    }

    /// The next `count` bytes as UTF-8 text.
    mutating func string(_ count: Int) throws -> String {
        guard let text = String(validating: try take(count), as: UTF8.self) else {
            throw malformed("text is not valid UTF-8")
        }
        return text
    }

    /// Everything up to `end` as UTF-8 text.
    mutating func string() throws -> String {
        try string(end - position)
    }
}
