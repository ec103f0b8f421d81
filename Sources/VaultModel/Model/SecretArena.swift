import VaultCrypto

/// Where a vault's secrets live while it is open: one protected buffer for all of them.
///
/// `sodium_malloc` costs three to four pages per allocation and the kernel locks only 8 MiB
/// per user, so one allocation per password would not scale to thousands of entries. Instead the
/// decrypted payload itself becomes the arena (secrets are referenced where the decoder found
/// them, with no copy) and secrets added later are appended to it. A `SecretReference` is just an
/// offset and a length; it is meaningful only with the arena it came from. Nothing is ever
/// removed: a deleted secret stays until the vault is closed, and the next save simply does not
/// write it.
public final class SecretArena {
    private var storage: SecureBytes

    /// An arena that starts with `bytes` (the decrypted payload), taking ownership of them.
    public init(adopting bytes: consuming SecureBytes) {
        storage = bytes
    }

    /// An empty arena with room for `capacity` bytes: an importer that knows about how much it
    /// will store (at most its file) reserves it at once, since growing by doubling copies the
    /// whole arena each time and holds the old and the new one together, 3x the contents at worst.
    public convenience init(capacity: Int = 4096) throws {
        do {
            self.init(adopting: try SecureBytes(capacity: max(capacity, 64)))
        } catch {
            throw VaultError.crypto(error)
        }
    }

    /// Copies `bytes` into the arena.
    public func store(_ bytes: UnsafeRawBufferPointer) throws -> SecretReference {
        let offset = storage.count
        do {
            try storage.append(contentsOf: bytes)
        } catch {
            throw VaultError.crypto(error)
        }
        return SecretReference(offset: offset, count: bytes.count)
    }

    public func store(_ secret: borrowing SecureBytes) throws -> SecretReference {
        try secret.withUnsafeBytes { bytes in try store(bytes) }
    }

    /// Lends the bytes of one secret; the pointer must not escape `body`.
    public func withBytes<Result: ~Copyable, Failure: Error>(
        of reference: SecretReference, _ body: (UnsafeRawBufferPointer) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try storage.withUnsafeBytes { (all) throws(Failure) in
            try body(UnsafeRawBufferPointer(rebasing: all[reference.offset ..< reference.offset + reference.count]))
        }
    }

    /// Whether `reference` here holds the same bytes as `other` in `arena` (this one or another):
    /// an import asking whether a password is already there. Not constant-time: both sides are
    /// the user's own, compared to skip a duplicate, not to check a guess.
    public func hasSameBytes(_ reference: SecretReference, as other: SecretReference, in arena: SecretArena) -> Bool {
        guard reference.count == other.count else { return false }
        return withBytes(of: reference) { mine in arena.withBytes(of: other) { mine.elementsEqual($0) } }
    }

    /// Replaces everything the arena holds (zeroed first) by `count` bytes that `fill` writes:
    /// a journal's records decrypted one after the other into one protected buffer, grown to
    /// the largest, instead of a protected allocation each. References into the old contents
    /// are meaningless afterwards.
    func refill(count: Int, _ fill: (UnsafeMutableRawBufferPointer) throws -> Void) throws {
        storage.removeAll()
        do {
            _ = try storage.appendZeros(count)
        } catch {
            throw VaultError.crypto(error)
        }
        try storage.withUnsafeMutableBytes { try fill($0) }
    }

    /// Lends the whole arena, for the payload decoder that locates secrets in it.
    func withAllBytes<Result, Failure: Error>(
        _ body: (UnsafeRawBufferPointer) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try storage.withUnsafeBytes(body)
    }

    /// Another arena with the same bytes at the same offsets, in protected memory of its own.
    public func copy() throws -> SecretArena {
        do {
            return SecretArena(
                adopting: try storage.withUnsafeBytes { bytes throws(VaultCryptoError) in
                    try SecureBytes(copying: bytes)
                })
        } catch {
            throw VaultError.crypto(error)
        }
    }

    /// Bytes the arena holds, for memory accounting.
    public var byteCount: Int { storage.count }
}

/// Where one secret lies in its vault's `SecretArena`.
public struct SecretReference: Hashable, Sendable {
    let offset: Int
    public let count: Int

    /// The bytes `range` (offsets within this secret) as a secret of their own, in the same
    /// arena and without a copy: a value inside a field an importer read whole.
    public func part(_ range: Range<Int>) -> SecretReference {
        let lower = min(max(range.lowerBound, 0), count)
        let upper = min(max(range.upperBound, lower), count)
        return SecretReference(offset: offset + lower, count: upper - lower)
    }
}
