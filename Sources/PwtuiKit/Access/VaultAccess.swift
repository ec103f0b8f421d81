import Platform
import ServiceMatching
import VaultAgent
import VaultCrypto
import VaultModel

/// Where `add`, `edit`, `rm` and `get` read and write: an unlocked agent that holds this vault
/// (nothing is asked), else the vault opened here with the master password. Both apply the same
/// `CredentialChange` and save with the same protocol; the agent also updates the identity store.
public enum VaultAccess {
    case agent(AgentClient, Session)
    case local(Vault, Session)

    /// The agent when it is unlocked with this vault and no `--master-password-fd` asks for a
    /// local unlock; otherwise the vault opened here (asking for the master password).
    public static func open(_ session: Session) throws -> VaultAccess {
        if let agent = session.agent, let status = try? agent.request(.status),
           case .status(let state) = status.body, !state.locked, state.vault == session.vaultPath {
            // The agent's stderr is nobody's: an older file it reloaded is warned of here.
            session.checkRollbackOfFile()
            return .agent(agent, session)
        }
        return .local(try session.openVault(), session)
    }

    /// A credential by id or unique prefix, without its secret.
    public func identity(of id: String) throws -> IdentityStore.Identity {
        switch self {
        case .agent(let agent, let session):
            // Nil: the agent locked since `open`; unlock here instead.
            guard let answer = try agent.ask(.describe(vault: session.vaultPath, id: id)) else {
                return try Self.local(session.openVault(), session).identity(of: id)
            }
            guard case .identity(let identity) = answer.body else { throw AgentError.unexpected(answer.body) }
            return identity
        case .local(let vault, _):
            return IdentityStore.Identity(try vault.credential(id: id))
        }
    }

    /// Every credential, without secrets, and the equivalent domains. Through the agent, the
    /// identity store answers when it mirrors the vault on disk: the agent's answer is the same
    /// list coded as JSON, which for 10,000 credentials took it 100 ms to write and the client
    /// 50 ms to read, on every `edit` or `rm` that names a credential by service or title.
    /// With `username`, only that account's: the agent filters them, so a few travel instead of
    /// all (an `add`'s duplicate check).
    public func identities(username: String? = nil) throws -> (identities: [IdentityStore.Identity], equivalents: EquivalentDomains) {
        switch self {
        case .agent(let agent, let session):
            if username == nil, let store = try? session.currentIdentityStore() { return (store.identities, store.equivalents) }
            guard let listed = try agent.identities(vault: session.vaultPath, username: username) else {
                return try Self.local(session.openVault(), session).identities(username: username)
            }
            return listed
        case .local(let vault, _):
            let credentials = username.map { name in vault.contents.credentials.filter { $0.username == name } } ?? vault.contents.credentials
            return (credentials.map(IdentityStore.Identity.init), vault.contents.equivalents)
        }
    }

    /// Applies and saves `change`; `secret` goes with it when the change needs one. Returns the
    /// credential it touched.
    @discardableResult
    public func apply(_ change: CredentialChange, secret: borrowing SecureBytes) throws -> IdentityStore.Identity {
        switch self {
        case .agent(let agent, let session):
            guard let answer = try agent.ask(.write(vault: session.vaultPath, change: change), payload: secret) else {
                return try Self.local(session.openVault(), session).apply(change, secret: secret)
            }
            guard case .identity(let identity) = answer.body else { throw AgentError.unexpected(answer.body) }
            return identity
        case .local(let vault, let session):
            let identity = try change.apply(to: vault, secret: secret, suffixes: session.suffixes)
            try session.save(vault)
            return identity
        }
    }

    /// `view` of the credential `identity` (`show`, `history`), in protected memory: rendered by
    /// the agent, or here.
    public func render(_ view: CredentialView, of identity: IdentityStore.Identity) throws -> SecureBytes {
        switch self {
        case .agent(let agent, let session):
            // Nil: locked since `open`, or an agent of an older version; unlock here instead.
            guard let answer = try agent.ask(.view(vault: session.vaultPath, id: identity.id.uuidString, view: view)) else {
                return try Self.local(session.openVault(), session).render(view, of: identity)
            }
            guard case .identity = answer.body else { throw AgentError.unexpected(answer.body) }
            return answer.takePayload()
        case .local(let vault, let session):
            let credential = try vault.credential(id: identity.id.uuidString)
            return try view.render(credential, from: vault, lastUsed: session.usageHistory.read().lastUsed(credential.id))
        }
    }

    /// The credential `query` names and its password; nil when nothing matches.
    public func password(for query: CredentialQuery) throws -> FoundPassword? {
        do {
            switch self {
            case .agent(let agent, let session):
                guard let answer = try agent.get(query, field: .password, vault: session.vaultPath) else {
                    return try Self.local(session.openVault(), session).password(for: query)
                }
                guard case .credential(let identity, let secretSet, _) = answer.body else { throw AgentError.unexpected(answer.body) }
                var password = try SecureBytes(capacity: answer.payload.count)
                try answer.payload.withUnsafeBytes { try password.append(contentsOf: CredentialField.value(ofRendered: $0)) }
                return FoundPassword(identity: identity, password: password, secretSet: Timestamp(millisecondsSince1970: secretSet))
            case .local(let vault, let session):
                let credential = try session.answer(query, in: vault)
                var password = try SecureBytes(capacity: credential.secret.count)
                try vault.withSecret(credential.secret) { try password.append(contentsOf: $0) }
                return FoundPassword(identity: IdentityStore.Identity(credential), password: password, secretSet: credential.secretSet)
            }
        } catch VaultError.noMatch {
            return nil
        } catch let refusal as AgentRefusal where refusal.status == .noMatch {
            return nil
        }
    }
}

/// A credential found by a query, with its password in protected memory.
public struct FoundPassword: ~Copyable {
    public let identity: IdentityStore.Identity
    public var password: SecureBytes
    /// When this password was set (`Credential.secretSet`).
    public let secretSet: Timestamp
}
