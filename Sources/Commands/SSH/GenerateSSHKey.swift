import Platform
import SSHKeys
import VaultAgent
import VaultCrypto
import VaultModel

/// `pwtui ssh generate`: a new Ed25519, RSA or ECDSA P-256 key made in protected memory and kept only in the vault
/// (`SSHKeyItem` says how); its public key, one `authorized_keys` line, on stdout.
///
/// The item is added already an SSH key with its fields: one change (`CredentialChange.add`'s
/// `then`), one save, through the agent or here.
public struct GenerateSSHKey {
    public var title: String
    public var hosts: [String]
    public var confirm: SSHKeyItem.ConfirmPolicy
    public var type: SSHKeyType
    /// RSA's size; nil for the default (3072), refused for the other types.
    public var bits: Int?

    public init(
        title: String, hosts: [String], confirm: SSHKeyItem.ConfirmPolicy, type: SSHKeyType = .ed25519,
        bits: Int? = nil
    ) {
        self.title = title
        self.hosts = hosts
        self.confirm = confirm
        self.type = type
        self.bits = bits
    }

    public func run(in context: CommandContext) throws {
        let addition = try SSHKeyAddition(title: title, hosts: hosts, confirm: confirm).checked()
        let privateKey = try type.newPrivateKey(bits: bits)
        let line = try addition.line(of: privateKey)
        let made = try addition.add(privateKey, line: line, through: try VaultAccess.open(context))
        try context.streams.write(
            line + "\n", afterSaving: "the new SSH key \(made.id.uuidString.lowercased().prefix(8))")
    }
}
