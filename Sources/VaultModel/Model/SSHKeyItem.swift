import VaultCrypto

/// How an SSH key is kept as a vault item (`ItemKind.sshKey`, issue 27): an ordinary credential,
/// so that history, sync, merge, export and the picker carry it with nothing of their own.
///
/// - The secret is the private key written as lowercase hexadecimal digits: an Ed25519 key's
///   32-byte seed (64 digits), or an RSA or ECDSA P-256 key's PKCS#8 DER. Text, because every
///   path that carries a password (export, `show --reveal`, history, a merge) carries it as
///   text, where raw bytes would reach a terminal or a CSV cell as garbage. It is in the vault's
///   `SecretArena` like any password, and decoded into protected memory to sign.
/// - Text fields: `public key`, the `authorized_keys` line (`ssh-ed25519 AAAA… title`), kept so
///   that `ssh list`, `ssh export` and the detail screen show it without touching the secret;
///   `ssh hosts`, the hosts given with `--host`, separated by spaces; `ssh confirm`, the approval
///   policy (`each`, `session`, `never`). The agent derives the public key it offers from the
///   private key, so what it offers is always what it can sign with.
/// - No services and no username: a service is what `get`, git's helper and the picker match a
///   host against, and an SSH key must never be answered as the password of `github.com`. Its
///   hosts are its own field for that reason.
public enum SSHKeyItem {
    public static let publicKeyField = "public key"
    public static let hostsField = "ssh hosts"
    public static let confirmField = "ssh confirm"

    /// Whether `field` of `credential` is one of an SSH key's public text fields: no secret (a
    /// public key is made to be handed out), so given to any program, whatever the key is bound
    /// to (`ssh list`, `ssh export`); the private key stays bound.
    public static func isPublic(_ field: CredentialField, of credential: Credential) -> Bool {
        guard credential.kind == .sshKey, case .named(let name) = field else { return false }
        return [publicKeyField, hostsField, confirmField].contains(name)
    }

    /// When a signature needs the user's approval (`SSHSignApproval` asks for it).
    public enum ConfirmPolicy: String, CaseIterable, Sendable, Codable {
        /// Every signature.
        case each
        /// Once per program and destination until the agent locks (the default).
        case session
        /// Never asked.
        case never
    }

    /// The longest private key read back: an 8192-bit RSA key's PKCS#8 DER is about 4.8 KB.
    public static let maximumPrivateKeyBytes = 8 * 1024

    /// The secret of an SSH key item: its private key (an Ed25519 seed, or an RSA or ECDSA key's
    /// PKCS#8 DER) as lowercase hex digits, in protected memory.
    public static func secret(ofKey key: borrowing SecureBytes) throws -> SecureBytes {
        try key.withUnsafeBytes { try SecretHex.encode($0) }
    }

    /// The private key of the SSH key item `credential`, decoded from its secret into protected
    /// memory: 32 bytes are an Ed25519 seed, anything longer an RSA or ECDSA key's PKCS#8 DER
    /// (a DER key is never 32 bytes long, so the length alone tells them apart).
    public static func privateKey(of credential: Credential, in vault: Vault) throws -> SecureBytes {
        try privateKey(of: credential, in: vault.contents)
    }

    /// The same from contents (a copy that long work reads outside the agent's turns).
    public static func privateKey(of credential: Credential, in contents: VaultContents) throws -> SecureBytes {
        guard credential.kind == .sshKey else {
            throw VaultError.invalidRequest("\(credential.displayTitle) is a \(credential.kind.name), not an SSH key")
        }
        let length = contents.secrets.withBytes(of: credential.secret) { $0.count }
        guard length >= 2, length % 2 == 0, length <= maximumPrivateKeyBytes * 2 else {
            throw VaultError.invalidRequest(
                "the secret of \(credential.displayTitle) is not an SSH private key (hexadecimal digits)")
        }
        guard let key = try contents.secrets.withBytes(of: credential.secret, { try SecretHex.decode($0) }) else {
            throw VaultError.invalidRequest(
                "the secret of \(credential.displayTitle) is not an SSH private key (hexadecimal digits)")
        }
        return key
    }

    /// The hosts an SSH key item is bound to (`--host`), in the order given.
    public static func hosts(of credential: Credential) -> [String] {
        (credential.field(named: hostsField)?.text ?? "").split(separator: " ").map(String.init)
    }

    /// Its approval policy; `session` when the field is missing or not one pwtui knows.
    public static func confirmPolicy(of credential: Credential) -> ConfirmPolicy {
        credential.field(named: confirmField)?.text.flatMap(ConfirmPolicy.init(rawValue:)) ?? .session
    }

    /// A host as `--host` gives it, checked and lowercased: a name or an address as ssh connects
    /// to it (`github.com`, `10.0.0.2`, `[::1]`), with no scheme, user or path.
    public static func host(_ text: String) throws -> String {
        let host = text.lowercased()
        let allowed = Set("abcdefghijklmnopqrstuvwxyz0123456789.-_:[]*".unicodeScalars)
        guard !host.isEmpty, host.utf8.count <= 253, host.unicodeScalars.allSatisfy(allowed.contains) else {
            throw VaultError.invalidRequest(
                "'\(text.prefix(60))' is not a host name: give it as ssh connects to it (github.com, 10.0.0.2), "
                    + "without a scheme, user or path")
        }
        return host
    }
}
