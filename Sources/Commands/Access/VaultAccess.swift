import FoundationEssentials
import Platform
import ServiceMatching
import VaultAgent
import VaultCrypto
import VaultModel

/// Where every command reads and writes the vault: an unlocked agent that holds this vault
/// (nothing is asked), else the vault opened here with the master password. Both apply the same
/// `CredentialChange` and save with the same protocol; the agent also updates the identity store.
///
/// The one place that talks to the agent for a command (`ArchitectureTests` holds every other
/// file of `Commands` but the agent's own to that): so every answer from an agent gets the same
/// rollback check of the file it answered from (`ask`), which the agent cannot make itself, having
/// no stderr anybody reads.
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

    /// `request` answered by an unlocked agent that holds the vault it names, nil when there is
    /// none (locked, absent, another vault, another version): the caller opens the vault here.
    /// Any other refusal is thrown with its exit code. An answer about the context's vault is
    /// followed by the rollback check of its file: the agent reloads a file another process wrote
    /// (a sync's fast-forward, a backup put back) with nobody to tell.
    public static func ask(_ request: AgentRequest, in context: CommandContext) throws -> AgentMessage<AgentReply>? {
        try checked(context.agent?.ask(request), for: request, in: context)
    }

    /// `ask` with a payload in protected memory (a password, a new secret).
    public static func ask(_ request: AgentRequest, payload: borrowing SecureBytes, in context: CommandContext) throws
        -> AgentMessage<AgentReply>?
    {
        try checked(context.agent?.ask(request, payload: payload), for: request, in: context)
    }

    /// An answer, after the rollback check of the file it came from (the first answer only, for
    /// a context that `asksAgentOften`).
    private static func checked(
        _ answer: consuming AgentMessage<AgentReply>?, for request: AgentRequest, in context: CommandContext
    ) -> AgentMessage<AgentReply>? {
        if answer != nil, request.vault == context.vaultPath, !(context.asksAgentOften && context.checkedAnAgentAnswer)
        {
            context.checkRollbackOfFile()
            context.checkedAnAgentAnswer = true
        }
        return answer
    }

    /// Whether an agent may answer this command at all (there is one, and no
    /// `--master-password-fd` asks for a local unlock); it may still be locked.
    public static func agentMayAnswer(_ context: CommandContext) -> Bool {
        context.agent != nil
    }

    /// Every identity of `path` and its equivalent domains, from an unlocked agent; nil when none
    /// holds it.
    public static func agentIdentities(of path: String, username: String? = nil, in context: CommandContext) throws
        -> (identities: [IdentityStore.Identity], equivalents: EquivalentDomains)?
    {
        guard let answer = try ask(.identities(vault: path, username: username), in: context) else { return nil }
        guard case .identities(let identities, let equivalents) = answer.body else {
            throw AgentError.unexpected(answer.body)
        }
        return (identities, EquivalentDomains(groups: equivalents))
    }

    /// The credential `id` without its secrets (the picker's detail screen), from an unlocked agent
    /// holding `path`; nil when none does (the caller asks for the master password).
    public static func agentOutline(of id: UUID, in path: String, context: CommandContext) throws
        -> CredentialOutline?
    {
        guard let answer = try ask(.details(vault: path, id: id.uuidString), in: context) else { return nil }
        guard case .details(let outline) = answer.body else { throw AgentError.unexpected(answer.body) }
        return outline
    }

    /// The secrets the detail screen may draw of the credential `id`, revealed by an unlocked agent
    /// holding `path` (given like a revealed `show`); nil when none does.
    static func agentReveal(of id: UUID, in path: String, context: CommandContext) throws -> VaultReading.Revealed? {
        guard let answer = try ask(.reveal(vault: path, id: id.uuidString), in: context) else { return nil }
        guard case .revealed(let outline, let lengths) = answer.body, lengths.allSatisfy({ $0 >= 0 }),
            lengths.reduce(0, +) == answer.payload.count
        else { throw AgentError.unexpected(answer.body) }
        return VaultReading.Revealed(outline: outline, lengths: lengths, secrets: answer.takePayload())
    }

    /// The one-time code now of the credential `id`, from an unlocked agent holding `path` (given
    /// like `get --field totp`, without recording a use); nil when none does.
    static func agentOneTimeCode(of id: UUID, in path: String, context: CommandContext) throws -> SecureBytes? {
        let request = AgentRequest.values(vault: path, ids: [id.uuidString], fields: [.totp])
        guard let answer = try ask(request, in: context) else { return nil }
        guard case .values(let lengths) = answer.body, lengths == [answer.payload.count] else {
            throw AgentError.unexpected(answer.body)
        }
        return answer.takePayload()
    }

    /// `change` (one that needs no new secret: a restore) made and saved by an unlocked agent
    /// holding `path`; false when none does.
    static func agentApply(_ change: CredentialChange, in path: String, context: CommandContext) throws -> Bool {
        guard let answer = try ask(.write(vault: path, change: change), payload: try SecureBytes(zeros: 0), in: context)
        else { return false }
        guard case .identity = answer.body else { throw AgentError.unexpected(answer.body) }
        return true
    }

    /// An audit by an unlocked agent holding `path`, nil when none does; for a screen's thread.
    public typealias AgentAuditor = @Sendable (AuditOptions) -> AuditReport?

    /// The agent's audit of `path`, to ask later (the picker's marks before unlocking); nil
    /// when no agent may answer.
    public static func agentAuditor(of path: String, in context: CommandContext) -> AgentAuditor? {
        guard let agent = context.agent else { return nil }
        return { options in
            guard let answer = try? agent.ask(.audit(vault: path, options: options)),
                case .audit(let report) = answer.body
            else { return nil }
            return report
        }
    }

    /// Locks an agent that holds `path` unlocked (its keys went stale: `passwd`); whether it did.
    /// Asked even with `--master-password-fd`, which keeps commands from using the agent.
    public static func lockAgent(holding path: String, in context: CommandContext) -> Bool {
        guard let agent = context.agentClient, let answer = try? agent.request(.status),
            case .status(let status) = answer.body, status.vault == path, !status.locked
        else { return false }
        return (try? agent.request(.lock)) != nil
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
        case .local(let vault, let context):
            return try VaultReading.here(vault, context).identity(of: id)
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
        case .local(let vault, let context):
            return VaultReading.here(vault, context).identities(username: username)
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

    /// Changes the vault's equivalent domains and saves: the group the first domain added is in,
    /// and the domains a removal found in no group.
    @discardableResult
    public func change(_ change: EquivalentsChange) throws -> (group: [String]?, unknown: [String]) {
        switch self {
        case .agent(let agent, let context):
            guard let answer = try agent.ask(.equivalents(vault: context.vaultPath, change: change)) else {
                return try Self.local(context.openVault(), context).change(change)
            }
            guard case .equivalents(let group, let unknown) = answer.body else {
                throw AgentError.unexpected(answer.body)
            }
            return (group, unknown)
        case .local(let vault, let context):
            let result = try change.apply(to: vault)
            try context.save(vault)
            return result
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
            return try VaultReading.here(vault, context).render(view, of: identity.id.uuidString)
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
            var start = values.count
            let lengths = try VaultReading.here(vault, context).append(
                ids: requests.map(\.id.uuidString), fields: requests.map(\.field), to: &values)
            return lengths.map { length in
                defer { start += length }
                return start ..< start + length
            }
        }
    }

    /// `pwtui audit`'s report: the agent's (on its copy of the vault, outside its turns), or the
    /// vault's here.
    public func audit(_ options: AuditOptions, now: Timestamp) throws -> AuditReport {
        switch self {
        case .agent(let agent, let context):
            // Nil: locked since `open`, or an agent of an older version; audit here instead.
            guard let answer = try agent.ask(.audit(vault: context.vaultPath, options: options)) else {
                return try Self.local(context.openVault(), context).audit(options, now: now)
            }
            guard case .audit(let report) = answer.body else { throw AgentError.unexpected(answer.body) }
            return report
        case .local(let vault, _):
            return try VaultAudit.report(of: vault, options: options, now: now)
        }
    }

    /// The credential `query` names and its password; nil when nothing matches.
    public func password(for query: CredentialQuery) throws -> FoundPassword? {
        do {
            switch self {
            case .agent(let agent, let context):
                guard
                    let answer = try agent.get(query.asking(for: .password), field: .password, vault: context.vaultPath)
                else {
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
                let answer = try VaultReading.here(vault, context).answer(query, field: .password)
                var password = try SecureBytes(capacity: answer.rendered.count)
                try answer.rendered.withUnsafeBytes {
                    try password.append(contentsOf: CredentialField.value(ofRendered: $0))
                }
                return FoundPassword(
                    identity: IdentityStore.Identity(answer.credential), password: password,
                    secretSet: answer.credential.secretSet)
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
