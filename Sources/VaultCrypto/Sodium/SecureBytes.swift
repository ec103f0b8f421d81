internal import CSodium
import Platform

/// Bytes that must not outlive their use: master passwords, keys, decrypted vault contents.
///
/// The storage comes from `sodium_malloc`: guard pages on both sides, `mlock`ed where the limit
/// allows (so it is not swapped), and zeroed by `sodium_free` when the value ends. The type is
/// `~Copyable`, so the bytes can never be duplicated by accident into a second, forgotten copy,
/// and it has no `description`, so it cannot be printed or interpolated into a log line.
///
/// `count` bytes are in use out of `capacity`; appending past the capacity grows the buffer by
/// moving it to a new protected allocation (the old one is zeroed and freed). Allocations are
/// expensive (three to four pages each), so callers keep a few large buffers rather than many.
public struct SecureBytes: ~Copyable {
    private var base: UnsafeMutableRawPointer
    public private(set) var count: Int
    public private(set) var capacity: Int

    /// An empty buffer able to hold `capacity` bytes before it has to grow.
    public init(capacity: Int) throws(VaultCryptoError) {
        try Sodium.ready()
        guard capacity >= 0 else { throw .invalidInput("negative capacity") }
        (base, self.capacity) = try Self.allocate(capacity)
        count = 0
    }

    /// `count` zero bytes.
    public init(zeros count: Int) throws(VaultCryptoError) {
        try self.init(capacity: count)
        self.count = count
    }

    /// A protected copy of `bytes`. The caller remains responsible for the source.
    public init(copying bytes: UnsafeRawBufferPointer) throws(VaultCryptoError) {
        try self.init(capacity: bytes.count)
        if let source = bytes.baseAddress, bytes.count > 0 {
            base.copyMemory(from: source, byteCount: bytes.count)
        }
        count = bytes.count
    }

    /// A protected copy of a collection of bytes (test data, a key read from a cache). Secrets
    /// themselves should never have been in an ordinary collection in the first place.
    public init<Bytes: Collection>(copying bytes: Bytes) throws(VaultCryptoError) where Bytes.Element == UInt8 {
        try self.init(capacity: bytes.count)
        for byte in bytes {
            base.storeBytes(of: byte, toByteOffset: count, as: UInt8.self)
            count += 1
        }
    }

    /// `count` bytes from the operating system's CSPRNG.
    public static func random(count: Int) throws(VaultCryptoError) -> SecureBytes {
        var bytes = try SecureBytes(zeros: count)
        bytes.withUnsafeMutableBytes { randombytes_buf($0.mutableBytes, $0.count) }
        return bytes
    }

    deinit {
        if capacity > 0 { ProtectedAllocations.free(base, capacity: capacity) }
    }

    public var isEmpty: Bool { count == 0 }

    public func withUnsafeBytes<Result: ~Copyable, Failure: Error>(
        _ body: (UnsafeRawBufferPointer) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try body(UnsafeRawBufferPointer(start: base, count: count))
    }

    public mutating func withUnsafeMutableBytes<Result, Failure: Error>(
        _ body: (UnsafeMutableRawBufferPointer) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try body(UnsafeMutableRawBufferPointer(start: base, count: count))
    }

    /// Appends one byte, growing the buffer when it is full.
    public mutating func append(_ byte: UInt8) throws(VaultCryptoError) {
        if count == capacity { try reserve(Swift.max(16, capacity * 2)) }
        base.storeBytes(of: byte, toByteOffset: count, as: UInt8.self)
        count += 1
    }

    public mutating func append(contentsOf bytes: UnsafeRawBufferPointer) throws(VaultCryptoError) {
        guard let source = bytes.baseAddress, bytes.count > 0 else { return }
        if count + bytes.count > capacity {
            try reserve(Swift.max(count + bytes.count, capacity * 2))
        }
        (base + count).copyMemory(from: source, byteCount: bytes.count)
        count += bytes.count
    }

    /// Appends the UTF-8 of `text`: the parts of a document holding secrets that are not secret
    /// themselves (JSON keys, labels, separators).
    public mutating func append(utf8 text: String) throws(VaultCryptoError) {
        // withUTF8 rethrows untyped; the one error possible here is carried out by hand.
        var text = text
        var failure: VaultCryptoError?
        text.withUTF8 { bytes in
            do throws(VaultCryptoError) { try append(contentsOf: UnsafeRawBufferPointer(bytes)) } catch {
                failure = error
            }
        }
        if let failure { throw failure }
    }

    public mutating func append(contentsOf other: borrowing SecureBytes) throws(VaultCryptoError) {
        let source = UnsafeRawBufferPointer(start: other.base, count: other.count)
        try append(contentsOf: source)
    }

    /// Appends `bytes` zero bytes and returns the offset where they start.
    public mutating func appendZeros(_ bytes: Int) throws(VaultCryptoError) -> Int {
        if count + bytes > capacity { try reserve(Swift.max(count + bytes, capacity * 2)) }
        let start = count
        (base + count).initializeMemory(as: UInt8.self, repeating: 0, count: bytes)
        count += bytes
        return start
    }

    /// Forgets the last `n` bytes, zeroing them first.
    public mutating func removeLast(_ n: Int) {
        let n = Swift.min(n, count)
        sodium_memzero(base + (count - n), n)
        count -= n
    }

    public mutating func removeAll() {
        removeLast(count)
    }

    /// Moves the contents to a protected allocation of at least `newCapacity` bytes.
    public mutating func reserve(_ newCapacity: Int) throws(VaultCryptoError) {
        guard newCapacity > capacity else { return }
        let (fresh, freshCapacity) = try Self.allocate(newCapacity)
        if count > 0 { fresh.copyMemory(from: base, byteCount: count) }
        if capacity > 0 { ProtectedAllocations.free(base, capacity: capacity) }
        base = fresh
        capacity = freshCapacity
    }

    /// Constant-time equality: the time taken depends on the length only, never on where the
    /// bytes first differ.
    public func isEqual(to other: borrowing SecureBytes) -> Bool {
        guard count == other.count else { return false }
        return sodium_memcmp(base, other.base, count) == 0
    }

    /// Constant-time comparison with bytes that are not themselves secret (a stored MAC).
    public func isEqual(to bytes: UnsafeRawBufferPointer) -> Bool {
        guard count == bytes.count else { return false }
        guard let other = bytes.baseAddress, count > 0 else { return true }
        return sodium_memcmp(base, other, count) == 0
    }

    /// Where every empty buffer points: nothing is ever read or written there, and it is never
    /// freed. An empty payload goes with most agent requests and answers, and a protected
    /// allocation is several system calls (mmap, mprotect, mlock, and as many to free it).
    private nonisolated(unsafe) static let nowhere = UnsafeMutableRawPointer.allocate(byteCount: 1, alignment: 1)

    private static func allocate(_ capacity: Int) throws(VaultCryptoError) -> (UnsafeMutableRawPointer, Int) {
        guard capacity > 0 else { return (nowhere, 0) }
        guard let allocation = ProtectedAllocations.allocate(atLeast: capacity) else {
            throw .outOfSecureMemory(requestedBytes: capacity)
        }
        return allocation
    }
}

/// An export read straight into protected memory by Platform's one read loop (`RegularFile`):
/// its passwords never pass through an ordinary array.
extension SecureBytes: RegularFile.Destination {
    public mutating func grow(by more: Int) -> Bool {
        do { _ = try appendZeros(more) } catch { return false }
        return true
    }

    public mutating func shrink(by n: Int) {
        removeLast(n)
    }

    public mutating func withBytes<Result>(_ body: (UnsafeMutableRawBufferPointer) -> Result) -> Result {
        withUnsafeMutableBytes { body($0) }
    }
}
