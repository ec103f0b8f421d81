internal import CSodium

/// BLAKE2b-256, unkeyed (the header checksum: "is this file intact?") and keyed (the key
/// commitment: "is this the key the file was written with?").
public enum BLAKE2b {
    public static let digestByteCount = 32

    public static func hash(_ data: UnsafeRawBufferPointer) throws(VaultCryptoError) -> [UInt8] {
        try Sodium.ready()
        var digest = [UInt8](repeating: 0, count: digestByteCount)
        let status = digest.withUnsafeMutableBufferPointer { out in
            crypto_generichash(out.mutableBytes, digestByteCount, data.bytes, UInt64(data.count), nil, 0)
        }
        guard status == 0 else { throw .invalidInput("BLAKE2b failed") }
        return digest
    }

    /// BLAKE2b-256 of `first` followed by `second`, without joining them in a copy first: a
    /// journal's chain hash over the previous hash and a whole frame, once per record.
    public static func hash(_ first: UnsafeRawBufferPointer, _ second: UnsafeRawBufferPointer) throws(VaultCryptoError)
        -> [UInt8]
    {
        try Sodium.ready()
        // The state is a 64-byte aligned C struct that Swift does not import: allocated so, by hand.
        let raw = UnsafeMutableRawPointer.allocate(byteCount: crypto_generichash_statebytes(), alignment: 64)
        defer { raw.deallocate() }
        let state = OpaquePointer(raw)
        var digest = [UInt8](repeating: 0, count: digestByteCount)
        let status = digest.withUnsafeMutableBufferPointer { out in
            guard crypto_generichash_init(state, nil, 0, digestByteCount) == 0,
                crypto_generichash_update(state, first.bytes, UInt64(first.count)) == 0,
                crypto_generichash_update(state, second.bytes, UInt64(second.count)) == 0
            else { return Int32(-1) }
            return crypto_generichash_final(state, out.mutableBytes, digestByteCount)
        }
        guard status == 0 else { throw .invalidInput("BLAKE2b failed") }
        return digest
    }

    public static func hash(_ data: [UInt8]) throws(VaultCryptoError) -> [UInt8] {
        try narrowingErrors { try data.withUnsafeBytes { try hash($0) } }
    }

    /// BLAKE2b-256 keyed with `key` (16 to 64 bytes).
    public static func mac(_ data: [UInt8], key: borrowing SecureBytes) throws(VaultCryptoError) -> [UInt8] {
        // The bytes lent to the one that reads them where they are (its error carried out by hand:
        // withUnsafeBytes rethrows untyped).
        var result: Result<[UInt8], VaultCryptoError> = .success([])
        data.withUnsafeBytes { bytes in
            do throws(VaultCryptoError) { result = .success(try mac(bytes, key: key)) } catch {
                result = .failure(error)
            }
        }
        return try result.get()
    }

    /// BLAKE2b-256 of `data`, read where it is (a password in protected memory), keyed with
    /// `key` (16 to 64 bytes): `pwtui audit` finds a password used twice by equal keyed digests
    /// under a random key, so the passwords are never compared, nor their digests kept, in a
    /// form that outlives the key.
    public static func mac(_ data: UnsafeRawBufferPointer, key: borrowing SecureBytes) throws(VaultCryptoError)
        -> [UInt8]
    {
        try Sodium.ready()
        guard key.count >= Int(crypto_generichash_KEYBYTES_MIN), key.count <= Int(crypto_generichash_KEYBYTES_MAX)
        else {
            throw .invalidInput("BLAKE2b key must be 16 to 64 bytes")
        }
        var digest = [UInt8](repeating: 0, count: digestByteCount)
        let status = key.withUnsafeBytes { keyBytes in
            digest.withUnsafeMutableBufferPointer { out in
                crypto_generichash(
                    out.mutableBytes, digestByteCount, data.bytes, UInt64(data.count), keyBytes.bytes, keyBytes.count)
            }
        }
        guard status == 0 else { throw .invalidInput("BLAKE2b failed") }
        return digest
    }

    /// Constant-time equality of two 32-byte digests (`crypto_verify_32`).
    public static func digestsMatch(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == digestByteCount, b.count == digestByteCount else { return false }
        return a.withUnsafeBufferPointer { x in
            b.withUnsafeBufferPointer { y in crypto_verify_32(x.bytes, y.bytes) == 0 }
        }
    }
}
