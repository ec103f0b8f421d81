import VaultModel

/// Why a file given to `ssh import` was not taken: each names what the file is, or what is wrong
/// with it, and has the exit code DESIGN.md gives that kind of failure (`exitStatus`).
public enum SSHKeyFileError: Error, Equatable, Sendable, CustomStringConvertible, ExitStatusReporting {
    /// Nothing but white space.
    case empty
    /// A public key (`.pub`, an `authorized_keys` line, RFC 4716 or a PEM public key).
    case publicKey
    /// A PuTTY `.ppk` file.
    case putty
    /// A private key of a type pwtui does not keep: `what` names it ("a DSA key").
    case unsupportedType(String)
    /// An OpenSSH file encrypted with a cipher or key derivation pwtui does not read.
    case unsupportedEncryption(String)
    /// Not a key file pwtui knows: `what` says what it seems to be.
    case unknownFormat(String)
    /// A key file that is cut short or damaged: `detail` says where.
    case malformed(String)
    /// Encrypted, and there is no passphrase source (no `--passphrase-fd`, no terminal).
    case needsPassphrase
    /// Encrypted, and the passphrase does not decrypt it: `detail` says how that showed.
    case wrongPassphrase(String)

    public var description: String {
        switch self {
        case .empty:
            return "the file is empty: no key in it"
        case .publicKey:
            return "this is a public key, not a private one: import the private key file (the one without .pub)"
        case .putty:
            return "this is a PuTTY key (.ppk); convert it first: puttygen KEY.ppk -O private-openssh -o KEY"
        case .unsupportedType(let what):
            return "\(what), which pwtui does not keep: it keeps Ed25519, RSA (2048 to 8192 bits) and ECDSA P-256 keys"
        case .unsupportedEncryption(let what):
            return "the file is encrypted with \(what), which pwtui does not read; "
                + "re-encrypt it with ssh-keygen -p -f FILE (aes256-ctr, the default)"
        case .unknownFormat(let what):
            return "\(what): not a private key pwtui reads (OpenSSH, PEM or PKCS#8)"
        case .malformed(let detail):
            return "the key file is damaged or cut short: \(detail)"
        case .needsPassphrase:
            return "the key is encrypted and there is no terminal to ask for its passphrase; "
                + "give it on a descriptor: --passphrase-fd 3 3<passphrase-file"
        case .wrongPassphrase(let detail):
            return "wrong passphrase: \(detail)"
        }
    }

    /// 65 for a file that is not what it should be, 77 for a wrong passphrase (as for a wrong
    /// master password), 75 for a passphrase that cannot be asked for.
    public var exitStatus: ExitStatus {
        switch self {
        case .wrongPassphrase: .wrongPassword
        case .needsPassphrase: .interactionRequired
        default: .corrupt
        }
    }
}
