import FoundationEssentials
import Platform
import ServiceMatching
import VaultAgent
import VaultCrypto
import VaultModel

/// The agent's work (AutoFill's reusable extension process): holds one vault unlocked so that
/// `get`, git, the picker and scripts answer at once, and hands out only what each request asks
/// for — never the master password or the data key, which stay in this process. Writes (`add`,
/// `edit`, `rm`: a `CredentialChange`) are applied here and saved with the same save protocol,
/// and the identity store follows; a change that failed to save is dropped from memory.
///
/// Before answering it re-reads the vault if another process saved it (with the data key it
/// holds, when the keys are unchanged; a new master password locks it). It locks — dropping the
/// vault, whose protected memory is zeroed as it is freed — after the idle timeout (reset by each
/// use), on `lock`, and when the server stops. `AgentServer` carries the requests here, one at a
/// time.
public final class AgentService: AgentHandler {
    let context: CommandContext
    private let idleTimeout: Duration
    private var vault: Vault? {
        // Any lock (a request, `ssh-add -x`, the idle timeout, a stop, a master password changed
        // elsewhere) forgets every approval given for the session.
        didSet { if vault == nil { sshApprovals.forget() } }
    }
    private var lastUse = ContinuousClock.now
    /// The `session` policy's approvals (`SSHSessionApprovals`), under the turn.
    var sshApprovals = SSHSessionApprovals()
    /// One question to the user at a time (`SSHSignApproval`), never under the turn.
    let sshAsking = Lock()
    /// Whether a vault is held (for the SSH socket's decisions, under the turn).
    var isUnlocked: Bool { vault != nil }

    public init(context: CommandContext, idleTimeout: Duration) {
        self.context = context
        self.idleTimeout = idleTimeout
    }

    public func idle() {
        if vault != nil, ContinuousClock.now - lastUse >= idleTimeout { vault = nil }
    }

    public func stop() {
        vault = nil
    }

    public func handle(_ request: AgentRequest, payload: inout SecureBytes, peer: PeerProcess?) -> AgentAnswer {
        do {
            return try answer(request, &payload, peer: peer)
        } catch {
            return AgentAnswer(.refused(status: ExitStatus(error) ?? .ioError, message: "\(error)"))
        }
    }

    private func answer(_ request: AgentRequest, _ payload: inout SecureBytes, peer: PeerProcess?) throws
        -> AgentAnswer
    {
        switch request {
        case .status:
            let idle =
                vault == nil ? 0 : max(0, Int((idleTimeout - (ContinuousClock.now - lastUse)).components.seconds))
            return AgentAnswer(
                .status(
                    state: AgentStatus(
                        locked: vault == nil, vault: context.vaultPath, locksInSeconds: idle, pid: CurrentProcess.id)))
        case .unlock:
            // The vault's one opening: the generation check, the identity store rebuilt if missing
            // or stale, and an interrupted passwd's note removed (nobody reads the agent's stderr,
            // so the notice is the unlocking client's to say).
            let interrupted = PasswordChangeMarker.pending(vaultPath: context.vaultPath)?.marker
            let opened = try context.open(context.vaultPath, password: payload, interrupted: interrupted)
            payload.removeAll()
            vault = opened
            lastUse = .now
            return AgentAnswer(.done)
        case .lock, .stop:
            vault = nil
            return AgentAnswer(.done)
        case .get(let path, var query, let field):
            let vault = try unlocked(for: path)
            // Who asks is the connection's peer, whatever the request says (it cannot say).
            query.askingProgram = try asker(peer, of: vault)
            let (credential, tied) = try context.rankedAnswer(query, in: vault)
            return AgentAnswer(
                .credential(
                    identity: IdentityStore.Identity(credential), secretSet: credential.secretSet.millisecondsSince1970,
                    tied: tied),
                payload: try field.render(credential, from: vault))
        case .values(let path, let ids, let fields):
            guard ids.count == fields.count else { throw VaultError.invalidRequest("as many fields as ids, please") }
            let vault = try unlocked(for: path)
            let asking = try asker(peer, of: vault)
            var values = try SecureBytes(capacity: 256)
            var lengths: [Int] = []
            for (id, field) in zip(ids, fields) {
                var query = CredentialQuery(id: id)
                query.askingProgram = asking
                // An SSH key's public fields are no secret: listed whatever the key is bound to.
                let listed = try vault.credential(id: id)
                let credential =
                    SSHKeyItem.isPublic(field, of: listed)
                    ? listed : try context.rankedAnswer(query, in: vault).credential
                let start = values.count
                try field.render(credential, from: vault).withUnsafeBytes {
                    try values.append(contentsOf: CredentialField.value(ofRendered: $0))
                }
                lengths.append(values.count - start)
            }
            return AgentAnswer(.values(lengths: lengths), payload: values)
        case .identities(let path, let username):
            // For a picker when the identity store is off: the same, never written to disk.
            let vault = try unlocked(for: path)
            let credentials =
                username.map { name in vault.contents.credentials.filter { $0.username == name } }
                ?? vault.contents.credentials
            return AgentAnswer(
                .identities(
                    identities: credentials.map(IdentityStore.Identity.init),
                    equivalents: vault.contents.equivalents.groups))
        case .describe(let path, let id):
            let vault = try unlocked(for: path)
            return AgentAnswer(.identity(IdentityStore.Identity(try vault.credential(id: id))))
        case .view(let path, let id, let view):
            let vault = try unlocked(for: path)
            let credential = try vault.credential(id: id)
            // A revealed password is given like `get` gives it: to the programs it is bound to.
            if view.reveal { try credential.requireGiven(to: try asker(peer, of: vault)) }
            let lastUsed = context.usageHistory.read().lastUsed(credential.id)
            return AgentAnswer(
                .identity(IdentityStore.Identity(credential)),
                payload: try view.render(credential, from: vault, lastUsed: lastUsed))
        case .write(let path, let change):
            let vault = try unlocked(for: path)
            defer { payload.removeAll() }
            do {
                let identity = try change.apply(to: vault, secret: payload, suffixes: context.suffixes)
                try context.save(vault)
                return AgentAnswer(.identity(identity))
            } catch {
                // What failed to save must not ride along with the next write.
                do { try vault.revert() } catch { self.vault = nil }
                throw error
            }
        case .mergeFiles(let base, let ours, let theirs):
            // Only copies under the key held here: a client can make the agent write nothing but
            // a merged copy of this vault over another copy of it. The key never leaves.
            guard let vault else { throw CommandFailure(.interactionRequired, "the agent is locked") }
            lastUse = .now
            let keyring = try vault.keyring()
            if !payload.isEmpty {
                _ = keyring.adding(password: try payload.withUnsafeBytes { try SecureBytes(copying: $0) })
                payload.removeAll()
            }
            return AgentAnswer(
                .merged(
                    try heldKeyOnly {
                        try VaultFileReconcile.reconcile(base: base, ours: ours, theirs: theirs, keyring: keyring)
                    }))
        case .mergeCopy(let path, let copy):
            let vault = try unlocked(for: path)
            let summary = try heldKeyOnly {
                try VaultFileReconcile.reconcile(copy: copy, into: path, keyring: try vault.keyring())
            }
            if try vault.reloadIfChanged() {
                context.rememberSaved(vault.header)
                context.syncIdentities(with: vault, saved: true)
            }
            return AgentAnswer(.merged(summary))
        case .audit(let path, let options):
            let vault = try unlocked(for: path)
            return AgentAnswer(.audit(try VaultAudit.report(of: vault, options: options, now: Clock.system.now())))
        }
    }

    /// Who sent a request: the peer's chain of processes; an unknown peer is nobody's program.
    /// Looked up only when `vault` has a credential bound to programs (none: nobody is refused);
    /// a peer that is no longer the process that connected is refused (`requesterChain`).
    func asker(_ peer: PeerProcess?, of vault: Vault) throws -> ProcessChain {
        guard vault.contents.hasBoundCredentials, let peer else { return ProcessChain(members: []) }
        return try context.requesterChain(peer)
    }

    /// A copy under another key is for the client to open with the master password (75).
    private func heldKeyOnly(_ body: () throws -> ReconcileSummary) throws -> ReconcileSummary {
        do {
            return try body()
        } catch let refusal as ReconcileRefusal {
            if case .keyNotHeld = refusal { throw CommandFailure(.interactionRequired, "\(refusal)") }
            throw refusal
        }
    }

    /// The vault, current with the file, when the request is for it and it is unlocked; each use
    /// postpones the idle lock. A master password changed elsewhere locks the agent.
    func unlocked(for path: String) throws -> Vault {
        guard path == context.vaultPath else {
            throw CommandFailure(.interactionRequired, "the agent holds another vault (\(context.vaultPath))")
        }
        guard let vault else { throw CommandFailure(.interactionRequired, "the agent is locked") }
        do {
            if try vault.reloadIfChanged() {
                // An older file is not remembered as the newest seen (the client warns of it).
                context.checkRollback(of: vault)
                context.syncIdentities(with: vault, saved: false)
            }
        } catch VaultError.conflict(_, let reason) {
            self.vault = nil
            throw CommandFailure(.interactionRequired, "locked: \(reason)")
        }
        lastUse = .now
        return vault
    }
}
