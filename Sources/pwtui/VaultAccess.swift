import VaultCrypto
import VaultModel
import Platform

/// Where `add`, `edit` and `rm` read and write: an unlocked agent that holds this vault (nothing
/// is asked), else the vault opened here with the master password. Both apply the same
/// `CredentialChange` and save with the same protocol; the agent also updates the identity store.
enum VaultAccess {
    case agent(AgentClient, GlobalOptions)
    case local(Vault, GlobalOptions)

    /// The agent when it is unlocked with this vault and no `--master-password-fd` asks for a
    /// local unlock; otherwise the vault opened here (asking for the master password).
    static func open(_ global: GlobalOptions) throws -> VaultAccess {
        if global.masterPasswordFD == nil, let agent = AgentClient.current,
           let status = try? agent.request(["op": "status"]),
           status.header["locked"] as? Bool == false, status.header["vault"] as? String == global.vaultPath {
            return .agent(agent, global)
        }
        return .local(try global.openVault(), global)
    }

    /// A credential by id or unique prefix, without its secret.
    func identity(of id: String) throws -> IdentityStore.Identity {
        switch self {
        case .agent(let agent, let global):
            // Nil: the agent locked since `open`; unlock here instead.
            guard let answer = try agent.ask(["op": "describe", "vault": global.vaultPath, "id": id]) else {
                return try Self.local(global.openVault(), global).identity(of: id)
            }
            return try IdentityStore.Identity(fields: answer.header["identity"] as? [String: Any] ?? [:])
        case .local(let vault, _):
            return IdentityStore.Identity(try vault.credential(id: id))
        }
    }

    /// Applies and saves `change`; `secret` goes with it when the change needs one. Returns the
    /// credential it touched.
    @discardableResult
    func apply(_ change: CredentialChange, secret: borrowing SecureBytes) throws -> IdentityStore.Identity {
        switch self {
        case .agent(let agent, let global):
            let request = change.fields.merging(["op": "write", "vault": global.vaultPath]) { _, new in new }
            guard let answer = try agent.ask(request, payload: secret) else {
                return try Self.local(global.openVault(), global).apply(change, secret: secret)
            }
            return try IdentityStore.Identity(fields: answer.header["identity"] as? [String: Any] ?? [:])
        case .local(let vault, let global):
            let identity = try change.apply(to: vault, secret: secret, global: global)
            try global.save(vault)
            return identity
        }
    }

    /// The credential `query` names and its password; nil when nothing matches.
    func password(for query: CredentialQuery) throws -> FoundPassword? {
        do {
            switch self {
            case .agent(let agent, let global):
                guard let answer = try agent.get(query, field: .password, vault: global.vaultPath) else {
                    return try Self.local(global.openVault(), global).password(for: query)
                }
                guard let identity = answer.identity else { throw AgentError.protocolError("an answer without the credential") }
                var password = try SecureBytes(capacity: answer.payload.count)
                try answer.payload.withUnsafeBytes { try password.append(contentsOf: CredentialField.value(ofRendered: $0)) }
                let secretSet = (answer.header["secretSet"] as? Int).map { Timestamp(millisecondsSince1970: Int64($0)) }
                return FoundPassword(identity: identity, password: password, secretSet: secretSet)
            case .local(let vault, let global):
                let credential = try query.answer(in: vault, global: global)
                var password = try SecureBytes(capacity: credential.secret.count)
                try vault.withSecret(credential.secret) { try password.append(contentsOf: $0) }
                return FoundPassword(identity: IdentityStore.Identity(credential), password: password, secretSet: credential.secretSet)
            }
        } catch VaultError.noMatch {
            return nil
        } catch let failure as CommandFailure where failure.code == .noMatch {
            return nil
        }
    }
}

/// A credential found by a query, with its password in protected memory.
struct FoundPassword: ~Copyable {
    let identity: IdentityStore.Identity
    var password: SecureBytes
    /// When this password was set (`Credential.secretSet`); nil from an agent too old to say.
    let secretSet: Timestamp?
}
