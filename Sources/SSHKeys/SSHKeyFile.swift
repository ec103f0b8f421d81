import VaultCrypto

/// A private key file as `ssh import` reads it: what kind of file it is, told from its first
/// line, and the key in it, as `SSHKeyItem` keeps keys (an Ed25519 seed, or RSA's and ECDSA
/// P-256's PKCS#8 DER) in protected memory.
///
/// - `-----BEGIN OPENSSH PRIVATE KEY-----`: OpenSSH's own format, read here (`OpenSSHKeyFile`);
/// - `RSA PRIVATE KEY`, `EC PRIVATE KEY`, `PRIVATE KEY`, `ENCRYPTED PRIVATE KEY`: PEM, read by
///   OpenSSL (`OpenSSLPEM`), which also decrypts them;
/// - anything else is named and refused: a DSA key, a public key given by mistake (`.pub`, an
///   `authorized_keys` line, RFC 4716, PEM), a PuTTY `.ppk`, an empty file.
///
/// The passphrase is asked (through `passphrase`) only when the file turns out to be encrypted.
public enum SSHKeyFile {
    public static func read(
        _ file: UnsafeRawBufferPointer, passphrase: () throws -> SecureBytes
    ) throws -> ImportedSSHKey {
        guard let start = file.firstIndex(where: { !isSpace($0) }) else { throw SSHKeyFileError.empty }
        let text = UnsafeRawBufferPointer(rebasing: file[start...])
        if starts(text, "PuTTY-User-Key-File-") { throw SSHKeyFileError.putty }
        if starts(text, "---- BEGIN SSH2 PUBLIC KEY")
            || ["ssh-", "ecdsa-sha2-", "sk-"].contains(where: { starts(text, $0) })
        {
            throw SSHKeyFileError.publicKey
        }
        let begin = "-----BEGIN "
        guard starts(text, begin) else {
            throw SSHKeyFileError.unknownFormat("the file does not start with a -----BEGIN line")
        }
        let afterBegin = UnsafeRawBufferPointer(rebasing: text[begin.utf8.count...])
        guard let labelEnd = find("-----", in: afterBegin), labelEnd <= 40 else {
            throw SSHKeyFileError.unknownFormat("the file's first line is not a PEM line")
        }
        let label = String(decoding: afterBegin[..<labelEnd], as: UTF8.self)
        switch label {
        case OpenSSHKeyFile.label:
            let bodyStart = labelEnd + 5
            let rest = UnsafeRawBufferPointer(rebasing: afterBegin[bodyStart...])
            guard let end = find("-----END \(OpenSSHKeyFile.label)-----", in: rest) else {
                throw SSHKeyFileError.malformed("its END line is missing")
            }
            guard let body = try Base64.decode(UnsafeRawBufferPointer(rebasing: rest[..<end])) else {
                throw SSHKeyFileError.malformed("its body is not base64")
            }
            return try body.withUnsafeBytes { try OpenSSHKeyFile.read($0, passphrase: passphrase) }
        case "RSA PRIVATE KEY", "EC PRIVATE KEY", "PRIVATE KEY", "ENCRYPTED PRIVATE KEY":
            return try pem(file, label: label, passphrase: passphrase)
        case "DSA PRIVATE KEY":
            throw SSHKeyFileError.unsupportedType("a DSA key")
        case "PUBLIC KEY", "RSA PUBLIC KEY", "SSH2 PUBLIC KEY", "EC PUBLIC KEY":
            throw SSHKeyFileError.publicKey
        default:
            let shown = label.unicodeScalars.allSatisfy { (0x20 ... 0x7E).contains($0.value) } ? label : "?"
            throw SSHKeyFileError.unknownFormat("a PEM file of \(shown)")
        }
    }

    /// A PEM key through OpenSSL: first without a passphrase; when OpenSSL asks for one, again with it.
    private static func pem(
        _ file: UnsafeRawBufferPointer, label: String, passphrase: () throws -> SecureBytes
    ) throws -> ImportedSSHKey {
        var outcome = try OpenSSLPEM.read(file, passphrase: nil)
        if outcome.needsPassphrase {
            let secret = try passphrase()
            outcome = try secret.withUnsafeBytes { try OpenSSLPEM.read(file, passphrase: $0) }
        }
        switch consume outcome {
        case .rsa(let key, let bits):
            guard OpenSSLKey.rsaBits.contains(bits) else {
                throw SSHKeyFileError.unsupportedType("a \(bits)-bit RSA key")
            }
            return ImportedSSHKey(type: .rsa, key: key)
        case .ecdsaP256(let key):
            return ImportedSSHKey(type: .ecdsa, key: key)
        case .ed25519(let key):
            return ImportedSSHKey(type: .ed25519, key: key)
        case .needsPassphrase:
            throw SSHKeyFileError.needsPassphrase
        case .wrongPassphrase:
            throw SSHKeyFileError.wrongPassphrase("OpenSSL could not decrypt the key with it")
        case .dsa:
            throw SSHKeyFileError.unsupportedType("a DSA key")
        case .otherCurve(let bits):
            throw SSHKeyFileError.unsupportedType("an ECDSA key on a \(bits)-bit curve (P-\(bits))")
        case .otherType:
            throw SSHKeyFileError.unsupportedType("a key of a type SSH does not sign with")
        case .unreadable:
            throw SSHKeyFileError.malformed("OpenSSL could not read the \(label) in it")
        case .inconsistent:
            throw SSHKeyFileError.malformed("the numbers of the \(label) in it do not make one key")
        }
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    private static func starts(_ bytes: UnsafeRawBufferPointer, _ prefix: String) -> Bool {
        bytes.count >= prefix.utf8.count && bytes.prefix(prefix.utf8.count).elementsEqual(prefix.utf8)
    }

    /// Where `pattern` first occurs in `bytes`.
    private static func find(_ pattern: String, in bytes: UnsafeRawBufferPointer) -> Int? {
        let needle = Array(pattern.utf8)
        guard bytes.count >= needle.count else { return nil }
        for index in 0 ... (bytes.count - needle.count)
        where bytes[index] == needle[0] && bytes[index ..< index + needle.count].elementsEqual(needle) {
            return index
        }
        return nil
    }
}
