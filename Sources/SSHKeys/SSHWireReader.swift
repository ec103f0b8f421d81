/// Reads SSH's wire encoding (RFC 4251 § 5: uint32, string, mpint) from bytes that stay where
/// they are (a key file in protected memory, an ssh-agent message, a host key blob): what it hands
/// out are views into them, valid while the caller's `withUnsafeBytes` lasts. The one reader of
/// that encoding in pwtui. Running out of bytes is a typed error, never a trap, so a cut or
/// forged input is told as such; each caller says which error (`SSHKeyFileError` for a key file,
/// the agent protocol's `Malformed` for a message), through `failure`.
public struct SSHWireReader<Failure: Error> {
    private let bytes: UnsafeRawBufferPointer
    public private(set) var position = 0
    /// What is being read, for the message when it runs out ("the private section").
    public let what: String
    private let failure: (String) -> Failure

    public init(_ bytes: UnsafeRawBufferPointer, what: String, failure: @escaping (String) -> Failure) {
        self.bytes = bytes
        self.what = what
        self.failure = failure
    }

    public var remaining: Int { bytes.count - position }
    public var isAtEnd: Bool { remaining == 0 }

    /// The bytes not read yet.
    public var rest: UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: bytes[position...]) }

    public mutating func bytes(_ count: Int) throws(Failure) -> UnsafeRawBufferPointer {
        guard count >= 0, count <= remaining else { throw failure("\(what) ends too soon") }
        defer { position += count }
        return UnsafeRawBufferPointer(rebasing: bytes[position ..< position + count])
    }

    public mutating func byte() throws(Failure) -> UInt8 {
        try bytes(1)[0]
    }

    public mutating func uint32() throws(Failure) -> UInt32 {
        let four = try bytes(4)
        return four.reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
    }

    /// A string: a uint32 length and that many bytes.
    public mutating func string() throws(Failure) -> UnsafeRawBufferPointer {
        let length = try uint32()
        guard Int(length) <= remaining else { throw failure("\(what) has a string longer than itself") }
        return try bytes(Int(length))
    }

    /// A string that must be short printable ASCII (a type or cipher name), as a Swift string.
    public mutating func name() throws(Failure) -> String {
        let raw = try string()
        guard raw.count <= 64, raw.allSatisfy({ (0x21 ... 0x7E).contains($0) }) else {
            throw failure("\(what) has a name that is not one")
        }
        return String(decoding: raw, as: UTF8.self)
    }

    /// A non-negative mpint's magnitude: without its sign byte, never with leading zeros.
    public mutating func positiveMPInt() throws(Failure) -> UnsafeRawBufferPointer {
        var raw = try string()
        if let first = raw.first, first & 0x80 != 0 { throw failure("\(what) has a negative number") }
        while let first = raw.first, first == 0 { raw = UnsafeRawBufferPointer(rebasing: raw[1...]) }
        guard !raw.isEmpty else { throw failure("\(what) has a zero where a key number belongs") }
        return raw
    }
}

extension SSHWireReader where Failure == SSHKeyFileError {
    /// A reader of a key file's part: running out is `SSHKeyFileError.malformed`.
    init(_ bytes: UnsafeRawBufferPointer, what: String) {
        self.init(bytes, what: what) { .malformed($0) }
    }
}

extension SSHWireReader {
    /// `body` with a reader of `bytes`, its failure kept typed (an array's `withUnsafeBytes`
    /// rethrows any error): what the agent protocol's messages and host keys are read with.
    public static func reading<Value>(
        _ bytes: [UInt8], what: String, failure: @escaping (String) -> Failure,
        _ body: (inout SSHWireReader) throws(Failure) -> Value
    ) throws(Failure) -> Value {
        let outcome = bytes.withUnsafeBytes { raw -> Result<Value, Failure> in
            var reader = SSHWireReader(raw, what: what, failure: failure)
            do throws(Failure) {
                return .success(try body(&reader))
            } catch {
                return .failure(error)
            }
        }
        return try outcome.get()
    }
}
