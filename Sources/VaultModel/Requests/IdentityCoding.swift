import FoundationEssentials
import Platform
import ServiceMatching

/// A credential's identity as the agent's answers carry it (never a secret). `hosts` that do
/// not pair with `services` are dropped (and parsed again from them) rather than trusted.
extension IdentityStore.Identity: Codable {
    private enum CodingKeys: String, CodingKey {
        case id, title, username, services, hosts, rank, oneTime, kind
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let services = try container.decode([String].self, forKey: .services)
        let hosts = try container.decodeIfPresent([String].self, forKey: .hosts)
        self.init(
            id: try container.decode(UUID.self, forKey: .id), title: try container.decode(String.self, forKey: .title),
            username: try container.decode(String.self, forKey: .username), services: services,
            hosts: hosts.flatMap { $0.count == services.count ? $0 : nil },
            rank: try container.decodeIfPresent(Int32.self, forKey: .rank) ?? 0,
            oneTime: try container.decodeIfPresent(OneTimeParameters.self, forKey: .oneTime).flatMap {
                $0.isValid ? $0 : nil
            },
            // Absent for a login, and in an older agent's answers; a kind this version does not
            // know is listed as a login, as the vault file's reader does.
            kind: try container.decodeIfPresent(UInt8.self, forKey: .kind).flatMap(ItemKind.init(rawValue:)) ?? .login)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(title, forKey: .title)
        try container.encode(username, forKey: .username)
        try container.encode(services, forKey: .services)
        try container.encode(hosts, forKey: .hosts)
        try container.encode(rank, forKey: .rank)
        try container.encodeIfPresent(oneTime, forKey: .oneTime)
        if kind != .login { try container.encode(kind.rawValue, forKey: .kind) }
    }
}
