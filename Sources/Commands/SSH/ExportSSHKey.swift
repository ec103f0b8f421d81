import Platform
import SSHKeys
import VaultCrypto
import VaultModel

/// `pwtui ssh export KEY` (its title, id or id prefix): the SSH key's public key, its `authorized_keys` line.
///
/// With `private`, the private key instead, in OpenSSH's own unencrypted format (as
/// `ssh-keygen -N ''` writes it, the title as its comment: `OpenSSHKeyWriter`), which ssh,
/// ssh-add and `ssh-keygen -y` read. That is a key leaving the vault in plaintext, so it is
/// guarded as `pwtui export` is: the master password is asked even when the agent is unlocked
/// (the vault is opened here, never through the agent), it is not written to a terminal, a file
/// (`--output`) is written 0600 through a temporary and a rename, and the key is never in a
/// `String`: from the vault's arena to protected memory to the descriptor.
public struct ExportSSHKey {
    public var id: String
    public var includePrivate: Bool
    /// Where the private key goes; nil: stdout (not a terminal).
    public var output: String?
    /// Replace a file already at `output`.
    public var force: Bool

    public init(id: String, includePrivate: Bool = false, output: String? = nil, force: Bool = false) {
        self.id = id
        self.includePrivate = includePrivate
        self.output = output
        self.force = force
    }

    public func run(in context: CommandContext) throws {
        if includePrivate { return try exportPrivate(in: context) }
        if output != nil { throw CommandFailure(.usage, "--output is for --private; the public key goes to stdout") }
        let access = try VaultAccess.open(context)
        let identity = try SSHKeyName.resolve(id, through: access)
        guard let entry = try SSHKeyListing.entries(of: [identity], through: access).first else {
            throw CommandFailure(.ioError, "the public key of \(identity.displayTitle) could not be read")
        }
        try context.streams.write(entry.publicKey + "\n")
    }

    private func exportPrivate(in context: CommandContext) throws {
        try PlaintextDestination.check(
            output: output, force: force, in: context,
            refusal: "a private key is not written to a terminal (it would stay in the scrollback)")
        // The master password, even with an unlocked agent: a key leaving the vault is confirmed.
        let vault = try context.openVault()
        let credential = try SSHKeyName.resolve(id, in: vault)
        let key = try SSHKeyItem.privateKey(of: credential, in: vault)
        let text = try OpenSSHKeyWriter.file(for: key, comment: credential.title)
        if let output {
            try text.withUnsafeBytes { try AtomicFile.write(bytes: $0, to: output) }
        } else {
            try context.streams.write(text)
        }
        context.streams.say(
            "Exported the private key of \(credential.displayTitle) to \(output ?? "stdout"), unencrypted. "
                + "Keep it 0600 and off shared disks; add a passphrase with ssh-keygen -p -f FILE if it stays.")
    }
}
