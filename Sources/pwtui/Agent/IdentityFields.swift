import Foundation
import VaultModel

/// A credential's identity as the agent's answers carry it (never a secret), and the one-line
/// description commands print.
extension IdentityStore.Identity {
    var fields: [String: Any] {
        ["id": id.uuidString.lowercased(), "title": title, "username": username, "services": services, "hosts": hosts, "rank": Int(rank)]
    }

    init(fields: [String: Any]) throws {
        guard let id = (fields["id"] as? String).flatMap(UUID.init(uuidString:)),
              let title = fields["title"] as? String, let username = fields["username"] as? String,
              let services = fields["services"] as? [String] else {
            throw AgentError.protocolError("an answer without the credential")
        }
        self.init(id: id, title: title, username: username, services: services, hosts: (fields["hosts"] as? [String]).flatMap { $0.count == services.count ? $0 : nil }, rank: Int32(clamping: fields["rank"] as? Int ?? 0))
    }

    /// "Title (user, service service)" for confirmations and reports.
    var summary: String { "\(displayTitle) (\(username), \(services.joined(separator: " ")))" }
}
