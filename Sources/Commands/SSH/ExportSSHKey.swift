import Platform
import VaultModel

/// `pwtui ssh export ID`: the SSH key's public key, its `authorized_keys` line. The private key
/// is not exported (a later slice: with the master password and `--private`, never to a terminal).
public struct ExportSSHKey {
    public var id: String

    public init(id: String) {
        self.id = id
    }

    public func run(in context: CommandContext) throws {
        let access = try VaultAccess.open(context)
        let identity = try access.identity(of: id)
        guard identity.kind == .sshKey else {
            throw CommandFailure(
                .usage,
                "\(identity.displayTitle) is a \(identity.kind.name), not an SSH key (`pwtui ssh list` lists them)")
        }
        guard let entry = try SSHKeyListing.entries(of: [identity], through: access).first else {
            throw CommandFailure(.ioError, "the public key of \(identity.displayTitle) could not be read")
        }
        try context.streams.write(entry.publicKey + "\n")
    }
}
