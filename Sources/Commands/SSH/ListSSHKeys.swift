import Platform
import VaultModel

/// `pwtui ssh list`: every SSH key's public key, one `authorized_keys` line each (the title is
/// its comment); `--format json`: id, title, public key, hosts and policy.
public struct ListSSHKeys {
    public var format: ListCredentials.Format

    public init(format: ListCredentials.Format) {
        self.format = format
    }

    public func run(in context: CommandContext) throws {
        let access = try VaultAccess.open(context)
        let keys = try access.identities().identities.filter { $0.kind == .sshKey }
        let entries = try SSHKeyListing.entries(of: keys, through: access)
        switch format {
        case .table:
            try context.streams.write(entries.map { $0.publicKey + "\n" }.joined())
        case .json:
            let objects = entries.map { entry in
                "{\"id\":\(JSONText.quote(entry.identity.id.uuidString.lowercased())),"
                    + "\"title\":\(JSONText.quote(entry.identity.title)),"
                    + "\"publicKey\":\(JSONText.quote(entry.publicKey)),"
                    + "\"hosts\":[\(entry.hosts.map(JSONText.quote).joined(separator: ","))],"
                    + "\"confirm\":\(JSONText.quote(entry.confirm.rawValue))}"
            }
            try context.streams.write("[" + objects.joined(separator: ",") + "]\n")
        }
    }
}
