import FoundationEssentials
import VaultCrypto

// The journal: a change that costs what it changes.
//
// A vault file used to be one sealed snapshot, and every change wrote all of it again: encode,
// seal, write, fsync, read back, rename. At 100,000 credentials one `add` cost 335 ms, fifteen
// times what it cost at 1,000, for the same one-credential change. The snapshot stays (it is
// what the save protocol writes, what git merges and what a backup holds), and since format 1.6
// the changes made after it are appended to the same file as records:
//
//     file    := header, sealed payload (the snapshot), frame*
//     frame   := u32 n, u64 sequence, sealed record (n bytes), u32 n
//     sealed  := 24-byte nonce, XChaCha20-Poly1305(data key, record, associated data)
//     AD      := "pwtui journal v1", vault id, u64 sequence, the previous frame's chain hash
//     chain   := BLAKE2b-256(previous chain hash, the whole frame); before the first frame, the
//                header's checksum (which names the snapshot: its generation and payload nonce)
//     record  := a payload (PayloadCodec) holding the change: every credential it touched, whole
//                and as it is after the change; a tombstone for each it removed; the equivalent
//                domains when it changed them
//
// One file, not a journal beside it: a copy, a backup, a sync or git carries the snapshot and
// its records together, and nothing can pair a snapshot with another's journal.
//
// Each record is sealed on its own under the data key the snapshot's header wraps, so an append
// needs no key derivation and no whole-vault work. The associated data chains it to everything
// before it: a record moved to another position, dropped from the middle, copied from another
// vault or from before a compaction (another snapshot, another header checksum) does not open,
// and that is damage (exit 65), as a damaged payload is. The sequence and the length are also in
// the clear, so the end of the journal can be found from the end of the file (`tail`) to tell
// which version of the vault a file is without the key (the rollback check of a client); the
// trailing length lets a reader step back one frame and check it against its leading length.
//
// Torn last records. An append is written, fdatasync'ed, read back and opened before the change
// is acknowledged; a process killed during it, or a power cut, can leave an incomplete frame at
// the end of the file (or zeros where the kernel grew the file before the data reached the disk).
// A reader takes the records before it and stops there; the next append, under the save lock,
// cuts it off first. Nothing acknowledged is ever in such a frame: acknowledging came after the
// fdatasync. Only the end can be torn: a whole frame that fails its checks is damage.
//
// Compaction writes a new snapshot of everything (the whole save protocol: temporary file, fsync,
// rename, directory fsync, `.bak`), whose header starts a new, empty chain. A crash during it
// leaves the old file whole. It happens when the records outgrow a share of the snapshot
// (`Vault.compactionShare`), at `passwd`, at `sync` before git commits the file, and whenever two
// writers met: a writer that finds the file changed since it read it replays its changes onto the
// newer vault and writes a snapshot (`ChangeReplay`), as every save did before the journal.
//
// Versions. The header's generation counts snapshots; the sequence counts records after the
// snapshot. (generation, sequence) orders every version of a vault that this machine saw, which
// is what the rollback warning compares (`GenerationMemory`).
package enum VaultJournal {
    static let context = Array("pwtui journal v1".utf8)
    /// The bytes a frame adds around its sealed record: two lengths and the sequence.
    static let frameOverhead = 4 + 8 + 4
    static let sealedOverhead = XChaCha20Poly1305.nonceByteCount + XChaCha20Poly1305.tagByteCount

    /// Where the snapshot ends and the first record would start.
    static func snapshotEnd(of header: VaultHeader) -> Int {
        VaultHeader.byteCount + Int(header.payloadLength)
    }

    /// A snapshot's journal before any record; `checksum` is its header's (the chain's start).
    static func start(header: VaultHeader, checksum: [UInt8], fileSize: Int? = nil) -> JournalPosition {
        let end = snapshotEnd(of: header)
        return JournalPosition(end: end, sequence: 0, head: checksum, fileSize: fileSize ?? end)
    }

    /// Opens every whole record after the snapshot in `file` (the whole file image) in order,
    /// handing each one's plaintext to `body`, and returns where the journal ends. A torn last
    /// frame is left out (see above); any other frame that fails is damage.
    ///
    /// The plaintexts are decrypted one after the other into one protected buffer (the arena
    /// `body` is lent, which holds that record only, until `body` returns), grown to the largest
    /// record: a protected allocation per record (its pages, mlock, mprotect and munmap) was a
    /// third of what replaying a thousand records cost.
    static func replay(
        _ file: UnsafeRawBufferPointer, header: VaultHeader, dataKey: borrowing SecureBytes, path: String,
        _ body: (SecretArena) throws -> Void
    ) throws -> JournalPosition {
        var plaintext: SecretArena?
        var position = start(
            header: header, checksum: Array(file[VaultHeader.checksumOffset ..< VaultHeader.byteCount]),
            fileSize: file.count)
        while position.end < file.count {
            let rest = UnsafeRawBufferPointer(rebasing: file[position.end...])
            let number = position.sequence + 1
            guard rest.count >= frameOverhead else { break }  // torn
            let length = Int(rest.loadUnaligned(as: UInt32.self).littleEndian)
            guard length >= sealedOverhead, length <= Limits.vaultPayloadBytes + sealedOverhead else {
                // Zeros to the end: the file grew before the record's bytes reached the disk.
                if rest.allSatisfy({ $0 == 0 }) { break }
                throw damage(path, "journal record \(number) has an impossible length (\(length) bytes)")
            }
            guard frameOverhead + length <= rest.count else { break }  // torn: cut off by the next append
            let frame = UnsafeRawBufferPointer(rebasing: rest[0 ..< frameOverhead + length])
            let sequence = UInt64(littleEndian: frame.loadUnaligned(fromByteOffset: 4, as: UInt64.self))
            let trailer = Int(frame.loadUnaligned(fromByteOffset: 12 + length, as: UInt32.self).littleEndian)
            guard trailer == length else {
                throw damage(path, "journal record \(number)'s two lengths differ")
            }
            guard sequence == number else {
                throw damage(path, "journal record \(number) is numbered \(sequence) (records were moved or dropped)")
            }
            let arena = try plaintext ?? SecretArena(capacity: length - sealedOverhead)
            plaintext = arena
            try open(frame, into: arena, vaultID: header.vaultID, previous: position.head, dataKey: dataKey) {
                damage(path, "journal record \(number) does not authenticate (the file was damaged or tampered with)")
            }
            try body(arena)
            position = try position.advanced(by: frame)
        }
        return position
    }

    /// The frame of a record whose plaintext is `record`, appended after `position`; and the
    /// position after it.
    static func seal(
        _ record: borrowing SecureBytes, vaultID: [UInt8], dataKey: borrowing SecureBytes,
        after position: JournalPosition
    ) throws -> (frame: [UInt8], next: JournalPosition) {
        let sequence = position.sequence + 1
        let sealed: [UInt8]
        let nonce: [UInt8]
        do {
            nonce = try RandomBytes.make(XChaCha20Poly1305.nonceByteCount)
            sealed = try XChaCha20Poly1305.seal(
                record, key: dataKey, nonce: nonce,
                associatedData: associatedData(vaultID: vaultID, sequence: sequence, previous: position.head))
        } catch {
            throw VaultError.crypto(error)
        }
        let length = UInt32(nonce.count + sealed.count)
        var frame: [UInt8] = []
        frame.reserveCapacity(frameOverhead + Int(length))
        withUnsafeBytes(of: length.littleEndian) { frame += $0 }
        withUnsafeBytes(of: sequence.littleEndian) { frame += $0 }
        frame += nonce
        frame += sealed
        withUnsafeBytes(of: length.littleEndian) { frame += $0 }
        var next = try frame.withUnsafeBytes { try position.advanced(by: $0) }
        // Appended, the frame ends the file (a torn end after the position is cut off first).
        next.fileSize = next.end
        return (frame, next)
    }

    /// Opens `frame` (whole, lengths checked) as the record after the chain hash `previous`,
    /// its plaintext replacing what `arena` held: what a reader does for each record, and an
    /// append to check what it read back.
    static func open(
        _ frame: UnsafeRawBufferPointer, into arena: SecretArena, vaultID: [UInt8], previous: [UInt8],
        dataKey: borrowing SecureBytes, failure: () -> VaultError
    ) throws {
        let length = frame.count - frameOverhead
        let sequence = UInt64(littleEndian: frame.loadUnaligned(fromByteOffset: 4, as: UInt64.self))
        let nonceEnd = 12 + XChaCha20Poly1305.nonceByteCount
        let sealed = UnsafeRawBufferPointer(rebasing: frame[nonceEnd ..< 12 + length])
        let nonce = UnsafeRawBufferPointer(rebasing: frame[12 ..< nonceEnd])
        let associated = associatedData(vaultID: vaultID, sequence: sequence, previous: previous)
        guard sealed.count >= XChaCha20Poly1305.tagByteCount else { throw failure() }
        try arena.refill(count: sealed.count - XChaCha20Poly1305.tagByteCount) { output in
            do {
                try associated.withUnsafeBytes { ad in
                    try XChaCha20Poly1305.open(sealed, into: output, key: dataKey, nonce: nonce, associatedData: ad)
                }
            } catch VaultCryptoError.authenticationFailed {
                throw failure()
            } catch let error as VaultCryptoError {
                throw VaultError.crypto(error)
            }
        }
    }

    /// How many records follow the snapshot, read from the end of a file of `size` bytes without
    /// the key: the last frame's sequence, when its two lengths agree. Nil when the end is not a
    /// whole frame (a torn record, damage): the caller then does without. `read` gives the bytes
    /// at an offset (fewer at the end of the file).
    static func lastSequence(size: Int, header: VaultHeader, read: (_ offset: Int, _ count: Int) -> [UInt8]?)
        -> UInt64?
    {
        let snapshotEnd = snapshotEnd(of: header)
        guard size > snapshotEnd else { return 0 }
        guard size - snapshotEnd >= frameOverhead + sealedOverhead, let trailer = read(size - 4, 4), trailer.count == 4
        else { return nil }
        let length = Int(trailer.withUnsafeBytes { $0.loadUnaligned(as: UInt32.self).littleEndian })
        let start = size - frameOverhead - length
        guard start >= snapshotEnd, let leading = read(start, 12), leading.count == 12 else { return nil }
        return leading.withUnsafeBytes { bytes in
            let leadingLength = Int(bytes.loadUnaligned(as: UInt32.self).littleEndian)
            return leadingLength == length
                ? UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: 4, as: UInt64.self)) : nil
        }
    }

    static func associatedData(vaultID: [UInt8], sequence: UInt64, previous: [UInt8]) -> [UInt8] {
        var data = context + vaultID
        withUnsafeBytes(of: sequence.littleEndian) { data += $0 }
        return data + previous
    }

    private static func damage(_ path: String, _ reason: String) -> VaultError {
        .corrupt(path: path, reason: reason)
    }
}

/// Where the journal of an open vault stands: what its next record follows.
public struct JournalPosition: Equatable, Sendable {
    /// Just past the last record: where the snapshot ends while there is none.
    public internal(set) var end: Int
    /// How many records follow the snapshot. With the header's generation, which version of the
    /// vault this is.
    public internal(set) var sequence: UInt64
    /// The chain hash of the last record, or the header's checksum while there is none.
    var head: [UInt8]
    /// The file's size when it was read: past `end` only by a torn last record.
    var fileSize: Int

    /// The position after `frame`, the next record, in a file of at least that size.
    func advanced(by frame: UnsafeRawBufferPointer) throws -> JournalPosition {
        let hash = try head.withUnsafeBytes { previous in
            try cryptoCall { () throws(VaultCryptoError) in try BLAKE2b.hash(previous, frame) }
        }
        let next = end + frame.count
        return JournalPosition(end: next, sequence: sequence + 1, head: hash, fileSize: max(fileSize, next))
    }
}
