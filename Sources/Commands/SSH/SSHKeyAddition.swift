import SSHKeys
import UnicodeText
import VaultAgent
import VaultCrypto
import VaultModel

/// A private key added to the vault as an SSH key item (`SSHKeyItem`), as `ssh generate` and
/// `ssh import` both add it: the item is an SSH key with its fields from its first save, one
/// change (`CredentialChange.add`'s `then`), one save, through the agent or the vault opened here.
struct SSHKeyAddition {
    var title: String
    var hosts: [String]
    var confirm: SSHKeyItem.ConfirmPolicy

    /// The title and hosts checked before any key is made or read.
    func checked() throws -> SSHKeyAddition {
        guard !title.trimmingSpaces().isEmpty else {
            throw CommandFailure(.usage, "an SSH key needs a title (--title), the comment of its public key")
        }
        return SSHKeyAddition(title: title, hosts: try hosts.map { try SSHKeyItem.host($0) }, confirm: confirm)
    }

    /// The key's `authorized_keys` line, with the title as its comment.
    func line(of privateKey: borrowing SecureBytes) throws -> String {
        SSHWire.authorizedKeysLine(keyBlob: try SSHPrivateKey.publicKeyBlob(privateKey), comment: title)
    }

    /// Adds `privateKey` whose public line is `line` through `access`; the new item.
    func add(_ privateKey: borrowing SecureBytes, line: String, through access: VaultAccess) throws
        -> IdentityStore.Identity
    {
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
                    + "`pwtui rm \(id)`, `pwtui agent stop`, then try again")
        }
        return made
    }
}
