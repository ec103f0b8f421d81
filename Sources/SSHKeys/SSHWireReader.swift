/// Reads SSH's wire encoding (RFC 4251 § 5: uint32, string, mpint) from bytes that stay where
/// they are, a key file in protected memory: what it hands out are views into them, valid while
/// the caller's `withUnsafeBytes` lasts. Running out of bytes is a typed error, never a trap, so
/// a cut or forged file is told as such.
struct SSHWireReader {
    private let bytes: UnsafeRawBufferPointer
    private(set) var position = 0
    /// What is being read, for the message when it runs out ("the private section").
    let what: String

    init(_ bytes: UnsafeRawBufferPointer, what: String) {
        self.bytes = bytes
        self.what = what
    }

    var remaining: Int { bytes.count - position }

    /// The bytes not read yet.
    var rest: UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: bytes[position...]) }

    mutating func bytes(_ count: Int) throws(SSHKeyFileError) -> UnsafeRawBufferPointer {
        guard count >= 0, count <= remaining else { throw .malformed("\(what) ends too soon") }
        defer { position += count }
        return UnsafeRawBufferPointer(rebasing: bytes[position ..< position + count])
    }

    mutating func uint32() throws(SSHKeyFileError) -> UInt32 {
        let four = try bytes(4)
        return four.reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
    }

    /// A string: a uint32 length and that many bytes.
    mutating func string() throws(SSHKeyFileError) -> UnsafeRawBufferPointer {
        let length = try uint32()
        guard Int(length) <= remaining else { throw .malformed("\(what) ends too soon") }
        return try bytes(Int(length))
    }

    /// A string that must be short printable ASCII (a type or cipher name), as a Swift string.
    mutating func name() throws(SSHKeyFileError) -> String {
        let raw = try string()
        guard raw.count <= 64, raw.allSatisfy({ (0x21 ... 0x7E).contains($0) }) else {
            throw .malformed("\(what) has a name that is not one")
        }
        return String(decoding: raw, as: UTF8.self)
    }

    /// A non-negative mpint's magnitude: without its sign byte, never with leading zeros.
    mutating func positiveMPInt() throws(SSHKeyFileError) -> UnsafeRawBufferPointer {
        var raw = try string()
        if let first = raw.first, first & 0x80 != 0 { throw .malformed("\(what) has a negative number") }
        while let first = raw.first, first == 0 { raw = UnsafeRawBufferPointer(rebasing: raw[1...]) }
        guard !raw.isEmpty else { throw .malformed("\(what) has a zero where a key number belongs") }
        return raw
    }
}
