import VaultCrypto

/// The 234 bytes in front of every vault's ciphertext (docs/design.md#the-vault-file),
/// little-endian:
///
///     offset size field
///          0    8 magic                \x89 P W V \r \n \x1a \n (PNG-style: catches text-mode
///                                      transfers and truncation to 7 bits)
///          8  2+2 version major, minor
///         12    4 flags                low 16 bits critical (unknown one: refuse), high 16 informational
///         16   16 vault id             random, stable for the vault's life
///         32    8 generation           +1 per save
///         40  1+1 kdf id, aead id      1 = Argon2id v1.3; 1 = XChaCha20-Poly1305-IETF
///         42  4+4 opslimit, memlimit   memlimit in KiB
///         50   16 salt
///         66   24 wrapped key nonce
///         90   48 wrapped data key     AEAD(KEK, DEK, AD = bytes 0..<32 and 40..<66)
///        138   32 key commitment       BLAKE2b-256 keyed with the KEK
///        170   24 payload nonce
///        194    8 payload length       the snapshot is 234 + this many bytes; journal records
///                                      follow it when flag 0x1 is set (format 1.6, VaultJournal)
///        202   32 header checksum      unkeyed BLAKE2b-256 of bytes 0..<202
///        234      payload              AEAD(DEK, padded plaintext, AD = bytes 0..<234)
///
/// The checksum lets a damaged file be called damaged before any key derivation; the payload's
/// associated data authenticates every header byte with the key. The generation is left out of
/// the key-wrapping AD so that a save need not re-wrap the key (and need not hold the KEK).
public struct VaultHeader: Sendable, Equatable {
    public static let magic: [UInt8] = [0x89, 0x50, 0x57, 0x56, 0x0D, 0x0A, 0x1A, 0x0A]
    public static let byteCount = 234
    public static let currentMajorVersion: UInt16 = 1
    /// 1.1 added the equivalent-domains record to the payload; 1.2 the authenticator key field;
    /// 1.3 items without a site (a credential with a title and no service). A 1.2 reader reads
    /// such an item but its edits refuse it, so it must not save the vault: the minor version
    /// tells it so. 1.4: credentials bound to programs, which a 1.3 reader would drop on save.
    /// 1.5: services of other schemes (`ssh://`, `sftp://`: issue 38) under their own tag, which
    /// a 1.4 reader skips and would drop on save. 1.6: the journal (`VaultJournal`, issue 37),
    /// records appended after the snapshot, announced by the critical flag `journaled` so that an
    /// older pwtui refuses the file whole ("features this pwtui does not know") instead of reading
    /// the snapshot without the changes after it.
    public static let currentMinorVersion: UInt16 = 6
    static let criticalFlagsMask: UInt32 = 0x0000_FFFF
    /// Journal records may follow the snapshot.
    static let journaledFlag: UInt32 = 0x1
    static let knownCriticalFlags: UInt32 = journaledFlag
    static let argon2idKDF: UInt8 = 1
    static let xchachaAEAD: UInt8 = 1
    static let checksumOffset = 202
    static let commitmentContext = Array("pwtui key commitment v1".utf8)

    public var majorVersion: UInt16 = currentMajorVersion
    public var minorVersion: UInt16 = currentMinorVersion
    public var flags: UInt32 = journaledFlag
    public var vaultID: [UInt8]
    public var generation: UInt64
    public var kdfID: UInt8 = argon2idKDF
    public var aeadID: UInt8 = xchachaAEAD
    public var kdf: KDFParameters
    public var salt: [UInt8]
    public var wrappedKeyNonce: [UInt8]
    public var wrappedKey: [UInt8]
    public var keyCommitment: [UInt8]
    public var payloadNonce: [UInt8]
    public var payloadLength: UInt64

    /// Whether journal records may follow the snapshot (format 1.6).
    public var isJournaled: Bool { flags & Self.journaledFlag != 0 }

    /// Whether this header is the latest format's: an older one is brought up to it, with its key
    /// wrapped again, when the vault is unlocked (`VaultFormat.unlock`).
    var isCurrentFormat: Bool { minorVersion >= Self.currentMinorVersion && isJournaled }

    /// The header's checksum: what names this snapshot (and starts its journal's chain).
    var checksum: [UInt8] {
        get throws { Array(try serialized()[Self.checksumOffset...]) }
    }

    /// The serialized header, checksum included.
    public func serialized() throws -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Self.byteCount)
        bytes += Self.magic
        append(majorVersion, to: &bytes)
        append(minorVersion, to: &bytes)
        append(flags, to: &bytes)
        bytes += vaultID
        append(generation, to: &bytes)
        bytes += [kdfID, aeadID]
        append(kdf.opsLimit, to: &bytes)
        append(kdf.memLimitKiB, to: &bytes)
        bytes += salt
        bytes += wrappedKeyNonce
        bytes += wrappedKey
        bytes += keyCommitment
        bytes += payloadNonce
        append(payloadLength, to: &bytes)
        precondition(bytes.count == Self.checksumOffset, "header layout")
        do {
            bytes += try BLAKE2b.hash(bytes)
        } catch {
            throw VaultError.crypto(error)
        }
        return bytes
    }

    /// The bytes the wrapped data key is bound to: identity and KDF fields, not the generation.
    var keyWrappingAssociatedData: [UInt8] {
        get throws {
            let all = try serialized()
            return Array(all[0 ..< 32]) + Array(all[40 ..< 66])
        }
    }

    /// Parses and checks a header in the order docs/design.md#the-vault-file gives, up to (not
    /// including) any key derivation: magic, version, flags, checksum, ids, then the file size
    /// against the length. `fileBytes` is the whole file, or its beginning when `fileSize` gives
    /// the whole size.
    public static func parse(_ fileBytes: UnsafeRawBufferPointer, path: String, fileSize: Int? = nil) throws
        -> VaultHeader
    {
        func corrupt(_ reason: String) -> VaultError { .corrupt(path: path, reason: reason) }
        guard fileBytes.count >= magic.count, fileBytes.prefix(magic.count).elementsEqual(magic) else {
            if fileBytes.count < magic.count, fileBytes.elementsEqual(magic.prefix(fileBytes.count)) {
                throw corrupt("the file is truncated (\(fileBytes.count) bytes)")
            }
            throw corrupt("this is not a pwtui vault (its first bytes are not the vault signature)")
        }
        var reader = HeaderReader(bytes: fileBytes)
        reader.position = magic.count
        guard fileBytes.count >= 12 else { throw corrupt("the file is truncated (\(fileBytes.count) bytes)") }
        let major: UInt16 = reader.integer()
        let minor: UInt16 = reader.integer()
        guard major == currentMajorVersion else {
            throw VaultError.unsupported(
                path: path,
                reason: "it is format version \(major).\(minor); this pwtui reads version \(currentMajorVersion)")
        }
        guard fileBytes.count >= byteCount else {
            throw corrupt("the file is truncated (\(fileBytes.count) bytes, shorter than the \(byteCount)-byte header)")
        }
        let flags: UInt32 = reader.integer()
        let storedChecksum = Array(fileBytes[checksumOffset ..< byteCount])
        let computed: [UInt8]
        do {
            computed = try BLAKE2b.hash(UnsafeRawBufferPointer(rebasing: fileBytes[0 ..< checksumOffset]))
        } catch {
            throw VaultError.crypto(error)
        }
        guard BLAKE2b.digestsMatch(storedChecksum, computed) else {
            throw corrupt("the header checksum does not match (the file was damaged or edited)")
        }
        let unknownCritical = flags & criticalFlagsMask & ~knownCriticalFlags
        guard unknownCritical == 0 else {
            throw VaultError.unsupported(
                path: path,
                reason: "it uses features this pwtui does not know (flags 0x\(String(unknownCritical, radix: 16)))")
        }
        var header = VaultHeader(
            majorVersion: major, minorVersion: minor, flags: flags,
            vaultID: reader.bytes(16), generation: reader.integer(),
            kdfID: reader.integer(), aeadID: reader.integer(),
            kdf: KDFParameters(opsLimit: reader.integer(), memLimitKiB: reader.integer()),
            salt: reader.bytes(16), wrappedKeyNonce: reader.bytes(24), wrappedKey: reader.bytes(48),
            keyCommitment: reader.bytes(32), payloadNonce: reader.bytes(24), payloadLength: reader.integer())
        header.minorVersion = minor
        guard header.kdfID == argon2idKDF else {
            throw VaultError.unsupported(path: path, reason: "unknown key derivation function \(header.kdfID)")
        }
        guard header.aeadID == xchachaAEAD else {
            throw VaultError.unsupported(path: path, reason: "unknown cipher \(header.aeadID)")
        }
        let expectedSize = UInt64(byteCount).addingReportingOverflow(header.payloadLength)
        let size = fileSize ?? fileBytes.count
        // A journaled file's records follow the snapshot (VaultJournal reads and checks them).
        let sizeMatches =
            header.isJournaled
            ? expectedSize.partialValue <= UInt64(size) : expectedSize.partialValue == UInt64(size)
        guard !expectedSize.overflow, sizeMatches else {
            if !expectedSize.overflow, UInt64(size) < expectedSize.partialValue {
                throw corrupt("the file is truncated (\(size) of \(expectedSize.partialValue) bytes)")
            }
            throw corrupt(
                "the file has \(size) bytes but its header accounts for \(byteCount) + \(header.payloadLength)")
        }
        guard header.payloadLength <= UInt64(Limits.vaultPayloadBytes) else {
            throw VaultError.unsupported(
                path: path,
                reason:
                    "its payload is \(header.payloadLength) bytes, over the \(Limits.vaultPayloadBytes) that pwtui opens"
            )
        }
        guard header.payloadLength >= UInt64(XChaCha20Poly1305.tagByteCount) else {
            throw corrupt("the payload is shorter than its authentication tag")
        }
        return header
    }

    private func append<T: FixedWidthInteger>(_ value: T, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
    }

    /// Reads fixed-size fields; the caller has checked the header's length.
    private struct HeaderReader {
        let bytes: UnsafeRawBufferPointer
        var position = 0

        mutating func integer<T: FixedWidthInteger>() -> T {
            defer { position += MemoryLayout<T>.size }
            return T(littleEndian: bytes.loadUnaligned(fromByteOffset: position, as: T.self))
        }

        mutating func bytes(_ count: Int) -> [UInt8] {
            defer { position += count }
            return Array(bytes[position ..< position + count])
        }
    }
}
