import VaultCrypto

/// OpenSSH's own private key format, `openssh-key-v1` (OpenSSH's PROTOCOL.key), what ssh-keygen
/// writes by default: read for `ssh import`, written (unencrypted) for `ssh export --private`.
///
/// The file is base64 between `-----BEGIN OPENSSH PRIVATE KEY-----` and its END line. Decoded:
///
///     "openssh-key-v1\0"
///     string ciphername     none, aes256-ctr (ssh-keygen's default), …
///     string kdfname        none, or bcrypt (bcrypt-pbkdf)
///     string kdfoptions     for bcrypt: string salt, uint32 rounds; else empty
///     uint32 number of keys (1: ssh-keygen never writes more)
///     string public key blob, as in authorized_keys
///     string private section, encrypted as the cipher says (an AEAD's tag follows it)
///
/// The private section: uint32 checkint twice (random, equal: after decryption they tell a wrong
/// passphrase), the key's type and private fields, its comment, and padding 1, 2, 3, … to the
/// cipher's block size. The fields (sshkey_private_serialize):
///
/// - `ssh-ed25519`: string public key (32), string private key (64: the seed, then the public key);
/// - `ssh-rsa`: mpint n, e, d, iqmp, p, q;
/// - `ecdsa-sha2-nistp256`: string "nistp256", string Q (uncompressed point), mpint d.
///
/// The key is decrypted with bcrypt-pbkdf(passphrase, salt, rounds) giving the cipher's key and
/// IV, one after the other. The result is kept as pwtui keeps keys (`SSHKeyItem`): the Ed25519
/// seed, or RSA's and ECDSA's PKCS#8 DER, and checked against the public blob in the header, so
/// a file whose halves disagree is refused rather than stored. Everything decoded, derived and
/// decrypted stays in protected memory; what becomes a `String` is only names (types, ciphers).
enum OpenSSHKeyFile {
    static let label = "OPENSSH PRIVATE KEY"
    static let magic = Array("openssh-key-v1".utf8) + [0]

    /// A cipher OpenSSH encrypts key files with: its key and IV sizes, block size and tag.
    struct Cipher {
        enum Engine {
            case none
            case aes(AESDecryption.Mode)
            case chacha
        }
        let engine: Engine
        let keyBytes: Int
        let ivBytes: Int
        let blockBytes: Int
        let tagBytes: Int

        static let byName: [String: Cipher] = [
            "none": Cipher(engine: .none, keyBytes: 0, ivBytes: 0, blockBytes: 8, tagBytes: 0),
            "aes128-ctr": Cipher(engine: .aes(.ctr), keyBytes: 16, ivBytes: 16, blockBytes: 16, tagBytes: 0),
            "aes192-ctr": Cipher(engine: .aes(.ctr), keyBytes: 24, ivBytes: 16, blockBytes: 16, tagBytes: 0),
            "aes256-ctr": Cipher(engine: .aes(.ctr), keyBytes: 32, ivBytes: 16, blockBytes: 16, tagBytes: 0),
            "aes128-cbc": Cipher(engine: .aes(.cbc), keyBytes: 16, ivBytes: 16, blockBytes: 16, tagBytes: 0),
            "aes192-cbc": Cipher(engine: .aes(.cbc), keyBytes: 24, ivBytes: 16, blockBytes: 16, tagBytes: 0),
            "aes256-cbc": Cipher(engine: .aes(.cbc), keyBytes: 32, ivBytes: 16, blockBytes: 16, tagBytes: 0),
            "aes256-gcm@openssh.com": Cipher(
                engine: .aes(.gcm), keyBytes: 32, ivBytes: 12, blockBytes: 16, tagBytes: 16),
            "chacha20-poly1305@openssh.com": Cipher(
                engine: .chacha, keyBytes: 64, ivBytes: 0, blockBytes: 8, tagBytes: 16),
        ]
    }

    /// The key in `body` (the decoded base64), as `SSHKeyItem` keeps it. `passphrase` is asked
    /// only when the file is encrypted, after its header (and so its key type) has been checked.
    static func read(
        _ body: UnsafeRawBufferPointer, passphrase: () throws -> SecureBytes
    ) throws -> ImportedSSHKey {
        var reader = SSHWireReader(body, what: "the key file")
        guard body.count >= magic.count, body.prefix(magic.count).elementsEqual(magic) else {
            throw SSHKeyFileError.malformed("it does not start with openssh-key-v1")
        }
        _ = try reader.bytes(magic.count)
        let cipherName = try reader.name()
        let kdfName = try reader.name()
        let kdfOptions = try reader.string()
        guard try reader.uint32() == 1 else {
            throw SSHKeyFileError.unknownFormat("a file with several keys in it")
        }
        let publicBlob = try reader.string()
        let type = try keyType(ofPublicBlob: publicBlob)
        let sealed = try reader.string()
        guard let cipher = Cipher.byName[cipherName] else {
            throw SSHKeyFileError.unsupportedEncryption("the cipher \(cipherName)")
        }
        guard reader.remaining == cipher.tagBytes else {
            throw SSHKeyFileError.malformed(
                reader.remaining < cipher.tagBytes ? "the encrypted part ends too soon" : "bytes after the key")
        }
        let tag = reader.rest
        guard sealed.count % cipher.blockBytes == 0 else {
            throw SSHKeyFileError.malformed("the private part is not a whole number of cipher blocks")
        }
        var plain = try SecureBytes(zeros: sealed.count)
        let encrypted: Bool
        switch (kdfName, cipher.engine) {
        case ("none", .none):
            plain.withUnsafeMutableBytes { $0.copyMemory(from: sealed) }
            encrypted = false
        case ("bcrypt", .none), ("none", _):
            throw SSHKeyFileError.malformed("its cipher (\(cipherName)) and key derivation (\(kdfName)) disagree")
        case ("bcrypt", _):
            var options = SSHWireReader(kdfOptions, what: "the key derivation's options")
            let salt = try options.string()
            let rounds = Int(try options.uint32())
            guard options.remaining == 0, !salt.isEmpty, salt.count <= 1024 else {
                throw SSHKeyFileError.malformed("the key derivation's options are not a salt and a number of rounds")
            }
            guard (1 ... BcryptPBKDF.maximumRounds).contains(rounds) else {
                throw SSHKeyFileError.unsupportedEncryption(
                    "bcrypt-pbkdf at \(rounds) rounds (pwtui reads 1 to \(BcryptPBKDF.maximumRounds))")
            }
            let secret = try passphrase()
            let derived = try secret.withUnsafeBytes { secret in
                try BcryptPBKDF.derive(
                    passphrase: secret, salt: salt, rounds: rounds, keyLength: cipher.keyBytes + cipher.ivBytes)
            }
            try decrypt(sealed, into: &plain, cipher: cipher, keyAndIV: derived, tag: tag)
            encrypted = true
        default:
            throw SSHKeyFileError.unsupportedEncryption("the key derivation \(kdfName)")
        }
        let key = try plain.withUnsafeBytes { plain in
            try privateKey(plain, type: type, encrypted: encrypted, blockBytes: cipher.blockBytes)
        }
        guard try SSHPrivateKey.publicKeyBlob(key).elementsEqual(publicBlob) else {
            throw SSHKeyFileError.malformed("its private key does not belong to the public key written beside it")
        }
        return ImportedSSHKey(type: type, key: key)
    }

    /// The type of the key whose public blob is `blob`, refusing the types pwtui does not keep
    /// (before any passphrase is asked).
    static func keyType(ofPublicBlob blob: UnsafeRawBufferPointer) throws -> SSHKeyType {
        var reader = SSHWireReader(blob, what: "the public key")
        let name = try reader.name()
        switch name {
        case SSHWire.ed25519KeyType:
            return .ed25519
        case SSHWire.rsaKeyType:
            _ = try reader.positiveMPInt()
            let modulus = try reader.positiveMPInt()
            let bits = modulus.count * 8 - (modulus.first.map { $0.leadingZeroBitCount } ?? 0)
            guard OpenSSLKey.rsaBits.contains(bits) else {
                throw SSHKeyFileError.unsupportedType("a \(bits)-bit RSA key")
            }
            return .rsa
        case SSHWire.ecdsaP256KeyType:
            return .ecdsa
        default:
            throw SSHKeyFileError.unsupportedType(describe(keyType: name))
        }
    }

    /// A key type pwtui does not keep, in words.
    static func describe(keyType name: String) -> String {
        if name == "ssh-dss" { return "a DSA key (ssh-dss)" }
        if name == "ecdsa-sha2-nistp384" { return "an ECDSA key on P-384 (\(name))" }
        if name == "ecdsa-sha2-nistp521" { return "an ECDSA key on P-521 (\(name))" }
        if name.hasPrefix("sk-") { return "a security key's handle (\(name)), whose private key is on the token" }
        if name.contains("-cert-") { return "a certificate (\(name))" }
        return "a key of type \(name)"
    }

    private static func decrypt(
        _ sealed: UnsafeRawBufferPointer, into plain: inout SecureBytes, cipher: Cipher,
        keyAndIV: borrowing SecureBytes, tag: UnsafeRawBufferPointer
    ) throws {
        do {
            try keyAndIV.withUnsafeBytes { (derived) throws(VaultCryptoError) in
                let key = UnsafeRawBufferPointer(rebasing: derived[..<cipher.keyBytes])
                let iv = UnsafeRawBufferPointer(rebasing: derived[cipher.keyBytes...])
                try plain.withUnsafeMutableBytes { (plain) throws(VaultCryptoError) in
                    switch cipher.engine {
                    case .aes(let mode):
                        try AESDecryption.decrypt(
                            sealed, into: plain, mode: mode, key: key, iv: iv, tag: mode == .gcm ? tag : nil)
                    case .chacha:
                        try OpenSSHChaCha20Poly1305.decrypt(sealed, into: plain, key: key, tag: tag)
                    case .none:
                        plain.copyMemory(from: sealed)
                    }
                }
            }
        } catch {
            // A full catch: Swift 6.3.1 crashes on `catch .authenticationFailed` here (PITFALLS).
            guard error == .authenticationFailed else { throw error }
            plain.withUnsafeMutableBytes { _ = $0.initializeMemory(as: UInt8.self, repeating: 0) }
            throw SSHKeyFileError.wrongPassphrase(
                "the encrypted key's authentication tag does not match (or the file's encrypted part was changed)")
        }
    }

    /// The private section `plain`, decrypted: the key, checked and converted.
    private static func privateKey(
        _ plain: UnsafeRawBufferPointer, type: SSHKeyType, encrypted: Bool, blockBytes: Int
    ) throws -> SecureBytes {
        var reader = SSHWireReader(plain, what: "the private part")
        let first = try reader.uint32()
        let second = try reader.uint32()
        guard first == second else {
            if encrypted { throw SSHKeyFileError.wrongPassphrase("the decrypted check numbers differ") }
            throw SSHKeyFileError.malformed("its check numbers differ")
        }
        let name = try reader.name()
        let key: SecureBytes
        switch (type, name) {
        case (.ed25519, SSHWire.ed25519KeyType):
            let publicKey = try reader.string()
            let secret = try reader.string()
            guard publicKey.count == 32, secret.count == 64,
                secret[32...].elementsEqual(publicKey)
            else { throw SSHKeyFileError.malformed("its Ed25519 key is not 32 and 64 bytes that agree") }
            key = try SecureBytes(copying: UnsafeRawBufferPointer(rebasing: secret[..<32]))
        case (.rsa, SSHWire.rsaKeyType):
            var parts = try SecureBytes(capacity: 4 * 1024)
            var lengths: [Int] = []
            for _ in 0 ..< 6 {
                let number = try reader.positiveMPInt()
                try parts.append(contentsOf: number)
                lengths.append(number.count)
            }
            key = try parts.withUnsafeBytes { parts in
                do {
                    return try OpenSSLKeyParts.rsa(parts: parts, lengths: lengths)
                } catch {
                    throw SSHKeyFileError.malformed("its RSA numbers do not make a valid key")
                }
            }
        case (.ecdsa, SSHWire.ecdsaP256KeyType):
            guard try reader.name() == SSHWire.ecdsaP256Curve else {
                throw SSHKeyFileError.malformed("its ECDSA key is not on the curve its type names")
            }
            let point = try reader.string()
            let scalar = try reader.positiveMPInt()
            do {
                key = try OpenSSLKeyParts.p256(scalar: scalar, point: point)
            } catch {
                throw SSHKeyFileError.malformed("its ECDSA numbers do not make a valid key")
            }
        default:
            throw SSHKeyFileError.malformed("the private key's type (\(name)) is not the public key's")
        }
        _ = try reader.string()  // the comment: the vault's title replaces it
        let padding = reader.rest
        guard padding.count < blockBytes, padding.enumerated().allSatisfy({ $0.element == UInt8($0.offset + 1) }) else {
            throw SSHKeyFileError.malformed("its padding is not 1, 2, 3, …")
        }
        return key
    }
}
