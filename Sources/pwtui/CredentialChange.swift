import Foundation
import VaultCrypto
import VaultModel
import ServiceMatching

/// A change to one credential as `add`, `edit` and `rm` ask for it. The same value is applied
/// here to a vault opened with the master password, or sent to an unlocked agent, which applies
/// it to the vault it holds — so both paths change a vault identically. A new password never
/// travels inside the change: it goes beside it, in protected memory.
enum CredentialChange: Equatable {
    struct Edits: Equatable {
        var title: String?
        var username: String?
        var rank: Int32?
        var notes: String?
        var addServices: [String] = []
        var removeServices: [String] = []
        var replacesSecret = false
    }

    case add(services: [String], username: String, title: String, notes: String, rank: Int32)
    case edit(id: String, Edits)
    case remove(id: String)

    /// Whether a secret goes with the change.
    var needsSecret: Bool {
        switch self {
        case .add: return true
        case .edit(_, let edits): return edits.replacesSecret
        case .remove: return false
        }
    }

    /// Applies the change to `vault` (not saved yet) and returns the credential it touched, as it
    /// is afterwards (a removed one as it was). `secret` is read only when `needsSecret`.
    /// Services are parsed again here: the agent trusts no client's parsing.
    func apply(to vault: Vault, secret: borrowing SecureBytes, global: GlobalOptions) throws -> IdentityStore.Identity {
        switch self {
        case .add(let services, let username, let title, let notes, let rank):
            let credential = try vault.add(services: try global.credentialServices(services), username: username,
                                           secret: secret, title: title, notes: notes, rank: rank)
            return IdentityStore.Identity(credential)
        case .edit(let id, let edits):
            let added = try global.credentialServices(edits.addServices)
            let removed = try edits.removeServices.map { try ServiceIdentifier($0) }
            let credential = try vault.credential(id: id)
            for service in removed where !credential.services.contains(service) {
                throw CommandFailure(.usage, "\(credential.displayTitle) has no service '\(service.text)'")
            }
            try vault.update(credential.id) { entry in
                if let title = edits.title { entry.title = title }
                if let username = edits.username { entry.username = username }
                if let rank = edits.rank { entry.rank = rank }
                if let notes = edits.notes { entry.notes = notes }
                entry.services.removeAll { removed.contains($0) }
                for service in added where !entry.services.contains(service) { entry.services.append(service) }
            }
            if edits.replacesSecret { try vault.replaceSecret(of: credential.id, with: secret) }
            return try IdentityStore.Identity(vault.credential(id: credential.id.uuidString))
        case .remove(let id):
            let credential = try vault.credential(id: id)
            try vault.remove(credential.id)
            return IdentityStore.Identity(credential)
        }
    }

    // MARK: On the agent's socket

    var fields: [String: Any] {
        switch self {
        case .add(let services, let username, let title, let notes, let rank):
            return ["change": "add", "services": services, "username": username, "title": title, "notes": notes, "rank": Int(rank)]
        case .edit(let id, let edits):
            var fields: [String: Any] = ["change": "edit", "id": id, "addServices": edits.addServices,
                                         "removeServices": edits.removeServices, "replacesSecret": edits.replacesSecret]
            fields["title"] = edits.title
            fields["username"] = edits.username
            fields["rank"] = edits.rank.map { Int($0) }
            fields["notes"] = edits.notes
            return fields
        case .remove(let id):
            return ["change": "remove", "id": id]
        }
    }

    init(fields: [String: Any]) throws {
        func text(_ key: String) throws -> String {
            guard let value = fields[key] as? String else { throw AgentError.protocolError("change without '\(key)'") }
            return value
        }
        func texts(_ key: String) -> [String] { fields[key] as? [String] ?? [] }
        func rank(_ value: Any?) -> Int32? { (value as? Int).map { Int32(clamping: $0) } }
        switch fields["change"] as? String {
        case "add":
            self = .add(services: texts("services"), username: try text("username"), title: fields["title"] as? String ?? "",
                        notes: fields["notes"] as? String ?? "", rank: rank(fields["rank"]) ?? 0)
        case "edit":
            self = .edit(id: try text("id"), Edits(
                title: fields["title"] as? String, username: fields["username"] as? String, rank: rank(fields["rank"]),
                notes: fields["notes"] as? String, addServices: texts("addServices"), removeServices: texts("removeServices"),
                replacesSecret: fields["replacesSecret"] as? Bool ?? false))
        case "remove":
            self = .remove(id: try text("id"))
        default:
            throw AgentError.protocolError("unknown change")
        }
    }
}
