import Platform
import UnicodeText
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
        guard !title.trimmingSpaces().isEmpty else {
            throw CommandFailure(.usage, "an SSH key needs a title (--title), the comment of its public key")
        }
        let hosts = try self.hosts.map { try SSHKeyItem.host($0) }
        let privateKey = try type.newPrivateKey(bits: bits)
        let line = SSHAgentProtocol.authorizedKeysLine(
            keyBlob: try SSHPrivateKey.publicKeyBlob(privateKey), comment: title)
        let access = try VaultAccess.open(context)
        // One change, one save: the item is an SSH key from its first save.
        var edits = CredentialChange.Edits()
        edits.kind = .sshKey
        edits.textFields = [
            .init(name: SSHKeyItem.publicKeyField, text: line),
            .init(name: SSHKeyItem.hostsField, text: hosts.joined(separator: " ")),
            .init(name: SSHKeyItem.confirmField, text: confirm.rawValue),
        ]
        let made = try access.apply(
            .add(services: [], username: "", title: title, notes: "", rank: 0, then: edits),
            secret: SSHKeyItem.secret(ofKey: privateKey))
        // An agent of an older version, left running across an upgrade, reads the addition without
        // what it does not know (its edits) and answers without a kind: said, not printed as if it
        // had worked.
        guard made.kind == .sshKey else {
            let id = made.id.uuidString.lowercased().prefix(8)
            throw CommandFailure(
                .savedButUnconfirmed,
                "the running agent is of an older version and saved \(id) as a login, not an SSH key; "
                    + "`pwtui rm \(id)`, `pwtui agent stop`, then generate again")
        }
        try context.streams.write(
            line + "\n", afterSaving: "the new SSH key \(made.id.uuidString.lowercased().prefix(8))")
    }
}
