import VaultCrypto

/// The cryptography of a vault file: how a password, a header and the contents become bytes
/// on disk, and back.
///
/// Two keys. The key-encryption key (KEK) comes from the master password through Argon2id and is
/// used for exactly two things: it wraps the random data key (DEK), and its keyed BLAKE2b digest
/// is stored as a commitment. The DEK encrypts the payload. So a save needs only the DEK (no key
/// derivation per save), and a password change replaces salt, KEK and DEK together.
///
/// Opening tells three failures apart, in this order, so that each gets its own exit code:
/// damage (the unkeyed header checksum, the file size: before any key derivation), a wrong
/// password (the commitment, compared in constant time: never confused with damage), and
/// tampering that kept the checksum consistent (the wrapped key or the payload fails to
/// authenticate under a key that the commitment proved right).
public enum VaultFormat {
    /// A fresh header and data key for a new vault, or for a password change.
    public static func makeKeys(
        password: borrowing SecureBytes, parameters: KDFParameters, derivation: any KeyDerivation,
        vaultID: [UInt8], generation: UInt64, floor: KDFParameters = .minimumForWriting
    ) throws -> VaultKeys {
        guard parameters.isAtLeast(floor) else {
            throw VaultError.invalidRequest("key derivation below the minimum of \(floor) is not written")
        }
        do {
            var header = VaultHeader(
                vaultID: vaultID, generation: generation, kdf: parameters,
                salt: try RandomBytes.make(Argon2id.saltByteCount),
                wrappedKeyNonce: try RandomBytes.make(XChaCha20Poly1305.nonceByteCount),
                wrappedKey: [], keyCommitment: [],
                payloadNonce: [UInt8](repeating: 0, count: XChaCha20Poly1305.nonceByteCount),
                payloadLength: 0)
            let kek = try derivation.deriveKey(password: password, salt: header.salt, parameters: parameters)
            let dek = try SecureBytes.random(count: XChaCha20Poly1305.keyByteCount)
            header.keyCommitment = try commitment(kek: kek, header: header)
            try wrap(dek, with: kek, into: &header)
            return VaultKeys(header: header, dataKey: dek)
        } catch let error as VaultCryptoError {
            throw VaultError.crypto(error)
        }
    }

    /// Opens a whole file image with the master password.
    public static func unlock(
        _ file: [UInt8], password: borrowing SecureBytes, derivation: any KeyDerivation,
        bounds: KDFParameters.Bounds, path: String
    ) throws -> UnlockedVault {
        let header = try file.withUnsafeBytes { try VaultHeader.parse($0, path: path) }
        guard bounds.admits(header.kdf) else {
            throw VaultError.keyDerivationTooExpensive(path: path, requested: header.kdf, bounds: bounds)
        }
        let minimum = Argon2id.minimumParameters
        guard header.kdf.opsLimit >= minimum.opsLimit, header.kdf.memLimitKiB >= minimum.memLimitKiB else {
            throw VaultError.corrupt(
                path: path, reason: "its key derivation parameters (\(header.kdf)) are below Argon2id's minimum")
        }
        let kek = try cryptoCall { () throws(VaultCryptoError) in
            try derivation.deriveKey(password: password, salt: header.salt, parameters: header.kdf)
        }
        guard BLAKE2b.digestsMatch(try commitment(kek: kek, header: header), header.keyCommitment) else {
            throw VaultError.wrongPassword(path: path)
        }
        let associatedData = try header.keyWrappingAssociatedData
        let dek: SecureBytes
        do {
            dek = try XChaCha20Poly1305.open(
                header.wrappedKey, key: kek, nonce: header.wrappedKeyNonce, associatedData: associatedData)
        } catch VaultCryptoError.authenticationFailed {
            throw VaultError.corrupt(
                path: path,
                reason:
                    "the wrapped key does not authenticate although the password is right (the header was tampered with)"
            )
        } catch {
            throw VaultError.crypto(error)
        }
        let opened = try open(file, header: header, dataKey: dek, path: path)
        // The format version is part of what the data key is bound to, so a vault an older pwtui
        // wrote gets its key wrapped again for this version, here where the KEK is at hand (a
        // save holds only the data key); the next save writes it. Stamping the new version at
        // save time without this made every older vault unopenable after its first save.
        var current = header
        if !header.isCurrentFormat {
            current.minorVersion = max(header.minorVersion, VaultHeader.currentMinorVersion)
            current.flags |= VaultHeader.journaledFlag
            do {
                current.wrappedKeyNonce = try RandomBytes.make(XChaCha20Poly1305.nonceByteCount)
                try wrap(dek, with: kek, into: &current)
            } catch let error as VaultCryptoError {
                throw VaultError.crypto(error)
            }
        }
        return UnlockedVault(
            keys: VaultKeys(header: current, dataKey: dek), contents: opened.contents, journal: opened.journal)
    }

    /// Wraps `dek` under `kek` into `header`, bound to the header's identity, version and KDF fields.
    static func wrap(_ dek: borrowing SecureBytes, with kek: borrowing SecureBytes, into header: inout VaultHeader)
        throws
    {
        // Placeholders of the right size so that the AD below is computed on the final layout.
        header.wrappedKey = [UInt8](
            repeating: 0, count: XChaCha20Poly1305.keyByteCount + XChaCha20Poly1305.tagByteCount)
        header.wrappedKey = try XChaCha20Poly1305.seal(
            dek, key: kek, nonce: header.wrappedKeyNonce, associatedData: try header.keyWrappingAssociatedData)
    }

    /// Decrypts a file image with a data key already held: a vault that changed on disk (to
    /// merge with it, or to follow it), and the copies a sync merge reads and checks.
    public static func decrypt(
        _ file: [UInt8], header: VaultHeader, dataKey: borrowing SecureBytes, path: String
    ) throws -> VaultContents {
        try open(file, header: header, dataKey: dataKey, path: path).contents
    }

    /// The contents of a file image, its snapshot decrypted and its journal replayed
    /// (`VaultJournal`), and where the journal ends.
    static func open(
        _ file: [UInt8], header: VaultHeader, dataKey: borrowing SecureBytes, path: String
    ) throws -> (contents: VaultContents, journal: JournalPosition) {
        // Room for the secrets the records bring, at most their size: the arena then grows in
        // place instead of being copied (19 MB at 100,000 credentials) as the first one lands.
        let spare = max(0, file.count - VaultJournal.snapshotEnd(of: header))
        let snapshot = try PayloadCodec.decodeRecords(
            try plaintext(file, header: header, dataKey: dataKey, path: path, spare: spare), path: path)
        guard header.isJournaled else {
            return (snapshot.contents, VaultJournal.start(header: header, checksum: try header.checksum))
        }
        // The snapshot handed over, not shared: a record replacing a credential then changes the
        // one array instead of copying 100,000 credentials first.
        var replay = JournalRecord.Replay(onto: consume snapshot, path: path)
        let journal = try file.withUnsafeBytes { bytes in
            try VaultJournal.replay(bytes, header: header, dataKey: dataKey, path: path) { try replay.apply($0) }
        }
        return (replay.finish(), journal)
    }

    /// How many credentials a file image holds, checked record by record and field by field
    /// (every length within its record) without building them: the read-back check of a save.
    /// Decoding them whole would hold every note a second time as text, and the image is already
    /// the one written byte for byte, authenticated by its tag. The payload is decrypted in
    /// place, where it lies in `image` (which then holds the plaintext, until it ends): a
    /// separate plaintext held a 100 MB import's payload a second time (issue 23).
    public static func credentialCount(
        decryptingInPlace image: inout SecureBytes, header: VaultHeader, dataKey: borrowing SecureBytes, path: String
    ) throws -> Int {
        guard image.count == VaultHeader.byteCount + Int(header.payloadLength),
            Int(header.payloadLength) >= XChaCha20Poly1305.tagByteCount
        else {
            throw VaultError.corrupt(path: path, reason: "the file size does not match its header")
        }
        try openingPayload(of: path) {
            try image.withUnsafeMutableBytes { bytes in
                try header.payloadNonce.withUnsafeBytes { nonce in
                    try XChaCha20Poly1305.openInPlace(
                        UnsafeMutableRawBufferPointer(rebasing: bytes[VaultHeader.byteCount...]), key: dataKey,
                        nonce: nonce,
                        associatedData: UnsafeRawBufferPointer(rebasing: bytes[0 ..< VaultHeader.byteCount]))
                }
            }
        }
        let plaintextEnd = image.count - XChaCha20Poly1305.tagByteCount
        return try image.withUnsafeBytes { bytes in
            try PayloadCodec.credentialCount(
                UnsafeRawBufferPointer(rebasing: bytes[VaultHeader.byteCount ..< plaintextEnd]), path: path)
        }
    }

    /// The payload's decryption, in a copy or in place: a payload that does not authenticate is a
    /// damaged or tampered file, any other failure the crypto's own.
    private static func openingPayload(of path: String, _ body: () throws -> Void) throws {
        do {
            try body()
        } catch VaultCryptoError.authenticationFailed {
            throw VaultError.corrupt(
                path: path, reason: "the encrypted contents do not authenticate (the file was damaged or tampered with)"
            )
        } catch let error as VaultCryptoError {
            throw VaultError.crypto(error)
        }
    }

    /// The snapshot's plaintext, in a buffer with room for `spare` more bytes: the ciphertext
    /// copied into protected memory and decrypted there.
    private static func plaintext(
        _ file: [UInt8], header: VaultHeader, dataKey: borrowing SecureBytes, path: String, spare: Int = 0
    ) throws -> SecureBytes {
        let snapshotEnd = VaultJournal.snapshotEnd(of: header)
        guard header.isJournaled ? file.count >= snapshotEnd : file.count == snapshotEnd else {
            throw VaultError.corrupt(path: path, reason: "the file size does not match its header")
        }
        let sealed = VaultHeader.byteCount ..< snapshotEnd
        var buffer = try cryptoCall { () throws(VaultCryptoError) in try SecureBytes(capacity: sealed.count + spare) }
        try file.withUnsafeBytes { bytes in
            try cryptoCall { () throws(VaultCryptoError) in
                try buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[sealed]))
            }
        }
        try openingPayload(of: path) {
            try buffer.withUnsafeMutableBytes { bytes in
                try header.payloadNonce.withUnsafeBytes { nonce in
                    try file.withUnsafeBytes { all in
                        try XChaCha20Poly1305.openInPlace(
                            bytes, key: dataKey, nonce: nonce,
                            associatedData: UnsafeRawBufferPointer(rebasing: all[0 ..< VaultHeader.byteCount]))
                    }
                }
            }
        }
        buffer.removeLast(XChaCha20Poly1305.tagByteCount)
        return buffer
    }

    /// The file image for `contents` under `header` (whose payload nonce and length this fills
    /// in) and `dataKey`, as an array: for images that are compared and handed around (a sync
    /// merge's), not the save of a large vault (`sealImage`).
    public static func seal(
        _ contents: VaultContents, header: inout VaultHeader, dataKey: borrowing SecureBytes
    ) throws -> [UInt8] {
        try sealImage(contents, header: &header, dataKey: dataKey).withUnsafeBytes { Array($0) }
    }

    /// The file image for `contents` under `header` (whose payload nonce and length this fills
    /// in) and `dataKey`, in the one protected buffer the payload was encoded in: the header is
    /// written into the room reserved before it, the payload encrypted in place, the tag into
    /// the room after it. The save writes the file from this buffer, so the payload exists
    /// once, as plaintext and then as ciphertext, never twice side by side (issue 23: a 100 MB
    /// import held plaintext and image together, 110 MB each).
    public static func sealImage(
        _ contents: VaultContents, header: inout VaultHeader, dataKey: borrowing SecureBytes
    ) throws -> SecureBytes {
        var image = try PayloadCodec.encode(
            contents, reservingBefore: VaultHeader.byteCount, after: XChaCha20Poly1305.tagByteCount)
        header.payloadNonce = try cryptoCall { () throws(VaultCryptoError) in
            try RandomBytes.make(XChaCha20Poly1305.nonceByteCount)
        }
        header.payloadLength = UInt64(image.count - VaultHeader.byteCount)
        let serialized = try header.serialized()
        guard serialized.count == VaultHeader.byteCount else {
            throw VaultError.invalidRequest(
                "the vault header serialized to \(serialized.count) bytes, not \(VaultHeader.byteCount)")
        }
        let nonce = header.payloadNonce
        do {
            try image.withUnsafeMutableBytes { bytes in
                serialized.withUnsafeBytes { headerBytes in
                    UnsafeMutableRawBufferPointer(rebasing: bytes[0 ..< VaultHeader.byteCount]).copyMemory(
                        from: headerBytes)
                }
                try nonce.withUnsafeBytes { nonceBytes in
                    try XChaCha20Poly1305.sealInPlace(
                        UnsafeMutableRawBufferPointer(rebasing: bytes[VaultHeader.byteCount...]), key: dataKey,
                        nonce: nonceBytes,
                        associatedData: UnsafeRawBufferPointer(rebasing: bytes[0 ..< VaultHeader.byteCount]))
                }
            }
        } catch let error as VaultCryptoError {
            throw VaultError.crypto(error)
        }
        return image
    }

    /// BLAKE2b-256 keyed with the KEK over a fixed context, the vault id and the salt. Equal
    /// commitments mean an equal KEK, so "wrong password" is unambiguous.
    static func commitment(kek: borrowing SecureBytes, header: VaultHeader) throws -> [UInt8] {
        do {
            return try BLAKE2b.mac(VaultHeader.commitmentContext + header.vaultID + header.salt, key: kek)
        } catch {
            throw VaultError.crypto(error)
        }
    }
}

/// A vault's header together with the data key it wraps: what a save needs.
public struct VaultKeys: ~Copyable {
    public var header: VaultHeader
    public var dataKey: SecureBytes
}

/// What unlocking yields: the keys to save with, the contents, and where the file's journal ends.
public struct UnlockedVault: ~Copyable {
    public var keys: VaultKeys
    public var contents: VaultContents
    public var journal: JournalPosition
}
