import FoundationEssentials
import Platform
import ServiceMatching
import VaultAgent
import VaultCrypto
import VaultModel

/// Where `add`, `edit`, `rm` and `get` read and write: an unlocked agent that holds this vault
/// (nothing is asked), else the vault opened here with the master password. Both apply the same
/// `CredentialChange` and save with the same protocol; the agent also updates the identity store.
public enum VaultAccess {
    case agent(AgentClient, CommandContext)
    case local(Vault, CommandContext)

    /// The agent when it is unlocked with this vault and no `--master-password-fd` asks for a
    /// local unlock; otherwise the vault opened here (asking for the master password).
    public static func open(_ context: CommandContext) throws -> VaultAccess {
        if let agent = context.agent, let status = try? agent.request(.status),
            case .status(let state) = status.body, !state.locked, state.vault == context.vaultPath
        {
            // The agent's stderr is nobody's: an older file it reloaded is warned of here.
            context.checkRollbackOfFile()
            return .agent(agent, context)
        }
        return .local(try context.openVault(), context)
    }

    /// A credential by id or unique prefix, without its secret.
    public func identity(of id: String) throws -> IdentityStore.Identity {
        switch self {
        case .agent(let agent, let context):
            // Nil: the agent locked since `open`; unlock here instead.
            guard let answer = try agent.ask(.describe(vault: context.vaultPath, id: id)) else {
                return try Self.local(context.openVault(), context).identity(of: id)
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
    public func identities(username: String? = nil) throws -> (
        identities: [IdentityStore.Identity], equivalents: EquivalentDomains
    ) {
        switch self {
        case .agent(let agent, let context):
            if username == nil, let store = try? context.currentIdentityStore() {
                return (store.identities, store.equivalents)
            }
            guard let listed = try agent.identities(vault: context.vaultPath, username: username) else {
                return try Self.local(context.openVault(), context).identities(username: username)
            }
            return listed
        case .local(let vault, _):
            let credentials =
                username.map { name in vault.contents.credentials.filter { $0.username == name } }
                ?? vault.contents.credentials
            return (credentials.map(IdentityStore.Identity.init), vault.contents.equivalents)
        }
    }

    /// Applies and saves `change`; `secret` goes with it when the change needs one. Returns the
    /// credential it touched.
    @discardableResult
    public func apply(_ change: CredentialChange, secret: borrowing SecureBytes) throws -> IdentityStore.Identity {
        switch self {
        case .agent(let agent, let context):
            guard let answer = try agent.ask(.write(vault: context.vaultPath, change: change), payload: secret) else {
                return try Self.local(context.openVault(), context).apply(change, secret: secret)
            }
            guard case .identity(let identity) = answer.body else { throw AgentError.unexpected(answer.body) }
            return identity
        case .local(let vault, let context):
            let identity = try change.apply(to: vault, secret: secret, suffixes: context.suffixes)
            try context.save(vault)
            return identity
        }
    }

    /// `view` of the credential `identity` (`show`, `history`), in protected memory: rendered by
    /// the agent, or here.
    public func render(_ view: CredentialView, of identity: IdentityStore.Identity) throws -> SecureBytes {
        switch self {
        case .agent(let agent, let context):
            // Nil: locked since `open`, or an agent of an older version; unlock here instead.
            guard let answer = try agent.ask(.view(vault: context.vaultPath, id: identity.id.uuidString, view: view))
            else {
                return try Self.local(context.openVault(), context).render(view, of: identity)
            }
            guard case .identity = answer.body else { throw AgentError.unexpected(answer.body) }
            return answer.takePayload()
        case .local(let vault, let context):
            let credential = try vault.credential(id: identity.id.uuidString)
            if view.reveal { try credential.requireGiven(to: context.processChain(CurrentProcess.id)) }
            return try view.render(
                credential, from: vault, lastUsed: context.usageHistory.read().lastUsed(credential.id))
        }
    }

    /// `field` of each credential named, appended to `values` without the newline `get` ends it
    /// with; their ranges there, in order. Through the agent in one round trip. A credential bound
    /// to other programs is withheld, as from `get`.
    public func append(
        _ requests: [(field: CredentialField, id: UUID)], to values: inout SecureBytes
    ) throws -> [Range<Int>] {
        switch self {
        case .agent(let agent, let context):
            let request = AgentRequest.values(
                vault: context.vaultPath, ids: requests.map(\.id.uuidString), fields: requests.map(\.field))
            // Nil: locked since `open`; unlock here instead.
            guard let answer = try agent.ask(request) else {
                return try Self.local(context.openVault(), context).append(requests, to: &values)
            }
            guard case .values(let lengths) = answer.body, lengths.count == requests.count,
                lengths.reduce(0, +) == answer.payload.count
            else { throw AgentError.unexpected(answer.body) }
            var start = values.count
            try answer.payload.withUnsafeBytes { try values.append(contentsOf: $0) }
            return lengths.map { length in
                defer { start += length }
                return start ..< start + length
            }
        case .local(let vault, let context):
            return try requests.map { field, id in
                // An SSH key's public fields are no secret: listed whatever the key is bound to.
                let listed = try vault.credential(id: id.uuidString)
                let credential =
                    SSHKeyItem.isPublic(field, of: listed)
                    ? listed : try context.answer(CredentialQuery(id: id.uuidString), in: vault)
                let rendered = try field.render(credential, from: vault)
                let start = values.count
                try rendered.withUnsafeBytes { try values.append(contentsOf: CredentialField.value(ofRendered: $0)) }
                return start ..< values.count
            }
        }
    }

    /// The credential `query` names and its password; nil when nothing matches.
    public func password(for query: CredentialQuery) throws -> FoundPassword? {
        do {
            switch self {
            case .agent(let agent, let context):
                guard let answer = try agent.get(query, field: .password, vault: context.vaultPath) else {
                    return try Self.local(context.openVault(), context).password(for: query)
                }
                guard case .credential(let identity, let secretSet, _) = answer.body else {
                    throw AgentError.unexpected(answer.body)
                }
                var password = try SecureBytes(capacity: answer.payload.count)
                try answer.payload.withUnsafeBytes {
                    try password.append(contentsOf: CredentialField.value(ofRendered: $0))
                }
                return FoundPassword(
                    identity: identity, password: password, secretSet: Timestamp(millisecondsSince1970: secretSet))
            case .local(let vault, let context):
                let credential = try context.answer(query, in: vault)
                var password = try SecureBytes(capacity: credential.secret.count)
                try vault.withSecret(credential.secret) { try password.append(contentsOf: $0) }
                return FoundPassword(
                    identity: IdentityStore.Identity(credential), password: password, secretSet: credential.secretSet)
            }
        } catch VaultError.noMatch {
            return nil
        } catch let refusal as AgentRefusal
            where refusal.status == .noMatch && !WithheldCredential.describes(refusal.message)
        {
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
