internal import CSodium

/// Argon2id v1.3 through libsodium's `crypto_pwhash`, one lane, 32-byte output.
public struct Argon2id: KeyDerivation {
    public static let saltByteCount = Int(crypto_pwhash_SALTBYTES)
    public static let keyByteCount = 32

    /// The smallest parameters libsodium accepts; a header below them is malformed.
    public static var minimumParameters: KDFParameters {
        KDFParameters(
            opsLimit: UInt32(crypto_pwhash_opslimit_min()),
            memLimitKiB: UInt32(crypto_pwhash_memlimit_min() / 1024))
    }

    public init() {}

    public func deriveKey(
        password: borrowing SecureBytes, salt: [UInt8], parameters: KDFParameters
    ) throws(VaultCryptoError) -> SecureBytes {
        try derive(password: password, salt: salt, parameters: parameters, outputLength: Self.keyByteCount)
    }

    /// The raw KDF, also used with other output lengths by the known-answer tests.
    public func derive(
        password: borrowing SecureBytes, salt: [UInt8], parameters: KDFParameters, outputLength: Int
    ) throws(VaultCryptoError) -> SecureBytes {
        try Sodium.ready()
        guard salt.count == Self.saltByteCount else {
            throw .invalidInput("salt must be \(Self.saltByteCount) bytes, not \(salt.count)")
        }
        let minimum = Self.minimumParameters
        guard parameters.opsLimit >= minimum.opsLimit, parameters.memLimitKiB >= minimum.memLimitKiB else {
            throw .invalidInput("Argon2id parameters below libsodium's minimum: \(parameters)")
        }
        var key = try SecureBytes(zeros: outputLength)
        let status: Int32 = password.withUnsafeBytes { passwordBytes in
            key.withUnsafeMutableBytes { output in
                salt.withUnsafeBufferPointer { saltBytes in
                    UnsafeRawPointer(passwordBytes.bytes).withMemoryRebound(
                        to: CChar.self, capacity: passwordBytes.count
                    ) { passwordPointer in
                        crypto_pwhash(
                            output.mutableBytes, UInt64(outputLength),
                            passwordPointer, UInt64(passwordBytes.count), saltBytes.bytes,
                            UInt64(parameters.opsLimit), parameters.memLimitBytes, crypto_pwhash_ALG_ARGON2ID13)
                    }
                }
            }
        }
        guard status == 0 else { throw .keyDerivationFailed(memoryBytes: parameters.memLimitBytes) }
        return key
    }
}
