import Platform
import VaultCrypto
import VaultModel

/// `pwtui ssh edit KEY [--host H]... [--no-hosts] [--confirm POLICY]`: an SSH key's hosts (which
/// connections it is offered to first, and only, docs/ssh.md "Keys by host") and its approval
/// policy, changed as one edit of its fields, through the agent or here. The new values count
/// from the next request: the agent reads both each time.
public struct EditSSHKey {
    public var id: String
    /// The hosts it is bound to from now on; nil: unchanged. Empty: bound to none (`--no-hosts`).
    public var hosts: [String]?
    public var confirm: SSHKeyItem.ConfirmPolicy?

    public init(id: String, hosts: [String]?, confirm: SSHKeyItem.ConfirmPolicy?) {
        self.id = id
        self.hosts = hosts
        self.confirm = confirm
    }

    public func run(in context: CommandContext) throws {
        guard hosts != nil || confirm != nil else {
            throw CommandFailure(.usage, "nothing to change: give --host (repeatable), --no-hosts or --confirm")
        }
        let checked = try hosts.map { try $0.map { try SSHKeyItem.host($0) } }
        let access = try VaultAccess.open(context)
        let identity = try SSHKeyName.resolve(id, through: access)
        var edits = CredentialChange.Edits()
        if let checked {
            edits.textFields.append(.init(name: SSHKeyItem.hostsField, text: checked.joined(separator: " ")))
        }
        if let confirm { edits.textFields.append(.init(name: SSHKeyItem.confirmField, text: confirm.rawValue)) }
        let changed = try access.apply(.edit(id: identity.id.uuidString, edits), secret: try SecureBytes(zeros: 0))
        var said: [String] = []
        if let checked { said.append(checked.isEmpty ? "bound to no host" : "for " + checked.joined(separator: ", ")) }
        if let confirm { said.append("approval: \(confirm.rawValue)") }
        context.streams.say("\(changed.displayTitle): " + said.joined(separator: "; "))
    }
}
