import FoundationEssentials
import Platform
import ServiceMatching
import SSHKeys
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
/// use), on `lock`, and when the server stops.
///
/// Requests arrive side by side (`AgentServer`), and take turns on the vault (`turns`): reads
/// (`get`, `values`, listing, `show`, a signature) run together; a write turn (`unlock` taking
/// effect, `lock`, a copy taking the held vault's place: changed and saved, or re-read after
/// another process saved; a small change and its journal record) runs alone and lasts a pointer's
/// swap, or a change and its record. Nothing slow happens in a turn: a key derivation runs before
/// its unlock takes the turn, a large change is made to a copy and saved outside the turns (`saving`),
/// a question to the user is asked between two turns, and long work (an audit) runs on a copy
/// taken in a read turn, within its `AgentWorkLimit` (docs/agent.md, "Concurrency").
public final class AgentService: AgentHandler, @unchecked Sendable {
    // @unchecked: `vault` is read in a read turn and replaced in a write turn; `lastUse` under
    // `clock`; `sshApprovals` under `approvals`; the context's caches are filled before any
    // request (`init`) and those that change are locked where they live.
    let context: CommandContext
    private let idleTimeout: Duration
    /// Readers together, a writer alone: every use of `vault`.
    private let turns = ReadWriteLock()
    private var vault: Vault? {
        // Any lock (a request, `ssh-add -x`, the idle timeout, a stop, a master password changed
        // elsewhere) forgets every approval given for the session.
        didSet { if vault == nil { approvals.withLock { sshApprovals.forget() } } }
    }
    private let clock = Lock()
    private var lastUse = ContinuousClock.now
    /// When `idle` last wrote the use history's deferred uses; under `clock`.
    private var lastFlush = ContinuousClock.now
    /// How often `idle` writes them. It is called on every connection accepted as well as four
    /// times a second, and wrote the whole history each time: 43 % of the agent's CPU during a
    /// stream of gets (perf, Benchmarks/agent). Uses wait in memory, counted in every ranking.
    static let usageFlushInterval = Duration.seconds(1)
    /// The `session` policy's approvals (`SSHSessionApprovals`), under `approvals`.
    private(set) var sshApprovals = SSHSessionApprovals()
    private let approvals = Lock()
    /// One writer at a time (`saving`), outside the turns.
    private let writing = Lock()
    /// One question to the user at a time (`SSHSignApproval`), never in a turn.
    let sshAsking = Lock()

    public init(context: CommandContext, idleTimeout: Duration) {
        self.context = context
        self.idleTimeout = idleTimeout
        // What the context resolves once and keeps, resolved now, before requests share it.
        context.defersUsageWrites = true
        _ = try? context.settings()
        _ = context.vaultPath
        _ = context.suffixes
        _ = context.usageHistory
        _ = context.sshPrompter
    }

    public func idle() {
        let now = ContinuousClock.now
        let flushDue = clock.withLock {
            guard now - lastFlush >= Self.usageFlushInterval else { return false }
            lastFlush = now
            return true
        }
        if flushDue { context.usageHistory.flush() }
        guard now - clock.withLock({ lastUse }) >= idleTimeout else { return }
        // Never waits: a request in a turn is a use anyway.
        _ = turns.tryWrite { if vault != nil { vault = nil } }
    }

    public func stop(within time: Duration) {
        context.usageHistory.flush()
        // A write turn in progress (a swap, a reload) finishes first, or the process ends without
        // it; a change being saved from its copy is abandoned (the save protocol never leaves half
        // a file). The kernel frees the protected memory then; nothing was swapped or dumped.
        _ = turns.tryWrite(within: time) { vault = nil }
    }

    /// Whether a vault is held.
    var isUnlocked: Bool { turns.read { vault != nil } }

    /// Postpones the idle lock.
    private func touch() {
        clock.withLock { lastUse = .now }
    }

    public func handle(
        _ request: AgentRequest, payload: inout SecureBytes, peer: PeerProcess?, limit: AgentWorkLimit
    ) -> AgentAnswer {
        do {
            return try answer(request, &payload, peer: peer, limit: limit)
        } catch {
            return AgentAnswer(.refused(status: ExitStatus(error), message: "\(error)"))
        }
    }

    /// `handle` for a request made inside the agent (the ssh-agent socket's lock and unlock).
    func handle(_ request: AgentRequest, payload: inout SecureBytes) -> AgentAnswer {
        handle(request, payload: &payload, peer: nil, limit: .none)
    }

    private func answer(
        _ request: AgentRequest, _ payload: inout SecureBytes, peer: PeerProcess?, limit: AgentWorkLimit
    ) throws -> AgentAnswer {
        switch request {
        case .status:
            let since = clock.withLock { ContinuousClock.now - lastUse }
            let locked = turns.read { vault == nil }
            let idle = locked ? 0 : max(0, Int((idleTimeout - since).components.seconds))
            return AgentAnswer(
                .status(
                    state: AgentStatus(
                        locked: locked, vault: context.vaultPath, locksInSeconds: idle, pid: CurrentProcess.id)))
        case .unlock:
            // The vault's one opening: the generation check, the identity store rebuilt if missing
            // or stale, and an interrupted passwd's note removed (nobody reads the agent's stderr,
            // so the notice is the unlocking client's to say). The key derivation takes up to
            // seconds: before the turn, so that nobody waits for it.
            let interrupted = PasswordChangeMarker.pending(vaultPath: context.vaultPath)?.marker
            let opened = try context.open(context.vaultPath, password: payload, interrupted: interrupted)
            payload.removeAll()
            turns.write { vault = opened }
            touch()
            return AgentAnswer(.done)
        case .lock, .stop:
            turns.write { vault = nil }
            return AgentAnswer(.done)
        case .get(let path, let query, let field):
            return try reading(path, peer) { reading in
                let answer = try reading.answer(query, field: field)
                return AgentAnswer(
                    .credential(
                        identity: IdentityStore.Identity(answer.credential),
                        secretSet: answer.credential.secretSet.millisecondsSince1970, tied: answer.tied),
                    payload: answer.rendered)
            }
        case .values(let path, let ids, let fields):
            return try reading(path, peer) { reading in
                var values = try SecureBytes(capacity: 256)
                let lengths = try reading.append(ids: ids, fields: fields, to: &values)
                return AgentAnswer(.values(lengths: lengths), payload: values)
            }
        case .identities(let path, let username):
            // For a picker when the identity store is off: the same, never written to disk.
            return try reading(path, peer) { reading in
                let (identities, equivalents) = reading.identities(username: username, keepingTable: true)
                return AgentAnswer(.identities(identities: identities, equivalents: equivalents.groups))
            }
        case .describe(let path, let id):
            return try reading(path, peer) { reading in AgentAnswer(.identity(try reading.identity(of: id))) }
        case .view(let path, let id, let view):
            return try reading(path, peer) { reading in
                AgentAnswer(.identity(try reading.identity(of: id)), payload: try reading.render(view, of: id))
            }
        case .details(let path, let id):
            return try reading(path, peer) { reading in AgentAnswer(.details(try reading.outline(of: id))) }
        case .reveal(let path, let id):
            return try reading(path, peer) { reading in
                let revealed = try reading.reveal(id)
                return AgentAnswer(
                    .revealed(outline: revealed.outline, lengths: revealed.lengths), payload: revealed.secrets)
            }
        case .write(let path, let change):
            defer { payload.removeAll() }
            return try saving(path, small: true) { vault in
                AgentAnswer(.identity(try change.apply(to: vault, secret: payload, suffixes: context.suffixes)))
            }
        case .importFile(let path, let order):
            let outcome = try ImportCredentials.runInAgent(
                order, limit: limit, context: context,
                reading: { apply in try reading(path, apply) },
                saving: { apply in
                    var outcome: ImportOutcome?
                    _ = try saving(path) { vault in
                        outcome = try apply(vault)
                        return AgentAnswer(.done)
                    }
                    return outcome
                })
            return AgentAnswer(.imported(outcome))
        case .equivalents(let path, let change):
            return try saving(path, small: true) { vault in
                let (group, unknown) = try change.apply(to: vault)
                return AgentAnswer(.equivalents(group: group, unknown: unknown))
            }
        case .mergeFiles(let base, let ours, let theirs):
            // Only copies under the key held here: a client can make the agent write nothing but
            // a merged copy of this vault over another copy of it. The key never leaves.
            let keyring = try turns.read { () throws -> VaultKeyring in
                guard let vault else { throw CommandFailure(.interactionRequired, "the agent is locked") }
                return try vault.keyring()
            }
            touch()
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
            // The file is reconciled and saved by the save protocol, outside the turns; a copy of
            // the held vault then reads what was saved and takes its place (as `refresh` does).
            let keyring = try turns.read { try held(path).keyring() }
            let summary = try heldKeyOnly {
                try VaultFileReconcile.reconcile(copy: copy, into: path, keyring: keyring)
            }
            try writing.withLock {
                let holding = try turns.read { try held(path) }
                let merged = try holding.copy()
                guard try merged.reloadIfChanged() else { return }
                context.rememberSaved(merged.header, at: merged.version)
                context.syncIdentities(with: merged, saved: true)
                turns.write { if vault === holding { vault = merged } }
            }
            return AgentAnswer(.merged(summary))
        case .keyring(let path, let request):
            return try keyring(request, of: path, payload: &payload, peer: peer)
        case .compact(let path):
            return try saving(path) { vault in
                try context.save(vault, lockHeld: true, compacting: true)
                return AgentAnswer(.done)
            }
        case .audit(let path, let options):
            // Every secret is read, and a breach file searched for each: on a copy taken in a
            // read turn, so that the turn lasts a copy, not the audit.
            let snapshot = try reading(path) { vault in try vault.contents.snapshot() }
            return AgentAnswer(
                .audit(
                    try VaultAudit.report(of: snapshot, options: options, now: Clock.system.now(), limit: limit)))
        }
    }

    /// `change` made to the vault `path` names and saved (when it changed anything), with reads
    /// going on all the while. One writer at a time (`writing`, then the vault's save lock, so
    /// that another process's save, or a stuck one for up to 15 s, is waited for with no turn
    /// held); the change is made to a copy of the held vault (`Vault.copy`) and saved from it,
    /// and the copy takes the held one's place in a write turn that lasts a pointer's swap. So a
    /// write holds back no read for its save: the whole-file save of a 10,000-credential vault
    /// took the turn for most of each `add`, and every `get` waited for it (Benchmarks/agent). A
    /// change that fails is dropped with its copy; the held vault never saw it. A `small` change
    /// (one credential, the equivalent domains) is made in place instead (`changingInPlace`).
    func saving(_ path: String, small: Bool = false, _ change: (Vault) throws -> AgentAnswer) throws
        -> AgentAnswer
    {
        try requireHeld(path)
        return try writing.withLock {
            try VaultStorage.whileLocked(path) {
                let holding = try turns.read { try held(path) }
                if small, let answer = try changingInPlace(holding, change) { return answer }
                let copy = try holding.copy()
                try reread(copy, replacing: holding)
                let answer = try change(copy)
                if copy.hasUnsavedChanges { try context.save(copy, lockHeld: true) }
                // Unless it locked meanwhile (or unlocked anew: that vault read the file itself).
                turns.write { if vault === holding { vault = copy } }
                touch()
                return answer
            }
        }
    }

    /// Room the journal must have for a change to be made in place: more than one credential's
    /// record takes but for a pathological one (which then costs a re-read, below). Well under
    /// the journal's own floor (`Vault.journalFloor`, what a vault of up to a few thousand
    /// credentials may journal): it was the floor itself, so in such a vault only the first change
    /// after a snapshot was made in place, and every later `add` copied the vault.
    static let inPlaceRoom = 16 * 1024

    /// A small change made to the held vault itself and appended to its journal in one write turn
    /// (issue 37): readers wait for the change and its record (a write and an fdatasync), and
    /// nothing is copied; a copy of the vault cost what the vault holds, 200 ms of an `add` at
    /// 100,000 credentials. Nil, having changed nothing, when the change is for a snapshot (the
    /// file changed since it was read, the journal is nearly full): the copy's path does that
    /// outside the turns. A change that fails, or whose record turns out not to fit, is undone
    /// by re-reading the file (`Vault.revert`) in the turn: a failure's cost, not a change's.
    private func changingInPlace(_ holding: Vault, _ change: (Vault) throws -> AgentAnswer) throws -> AgentAnswer? {
        guard holding.journalRoom >= Self.inPlaceRoom, try holding.isCurrentWithFile() else { return nil }
        var appended = false
        var failure: Error?
        let answer = turns.write { () -> AgentAnswer? in
            do {
                let answer = try change(holding)
                guard holding.hasUnsavedChanges else { return answer }
                appended = try holding.appendChanges(lockHeld: true)
                if appended { return answer }
                try holding.revert()
                return nil
            } catch {
                if holding.hasUnsavedChanges {
                    do { try holding.revert() } catch { vault = nil }  // not even the file reads: locked
                }
                failure = error
                return nil
            }
        }
        if let failure { throw failure }
        guard let answer else { return nil }
        if appended {
            context.rememberSaved(holding.header, at: holding.version)
            context.syncIdentities(with: holding, saved: true)
        }
        touch()
        return answer
    }

    /// `body` in a read turn with the vault `path` names, current with its file (`refresh`).
    /// Postpones the idle lock.
    func reading<Result: ~Copyable>(_ path: String, _ body: (Vault) throws -> Result) throws -> Result {
        try refresh(try turns.read { try held(path) })
        return try turns.read {
            let vault = try held(path)
            touch()
            return try body(vault)
        }
    }

    /// `body` in a read turn with what may be read from the vault `path` names (`reading`),
    /// asked by `peer`.
    private func reading<Result: ~Copyable>(
        _ path: String, _ peer: PeerProcess?, _ body: (VaultReading) throws -> Result
    ) throws -> Result {
        try reading(path) { vault in
            try body(VaultReading(vault: vault, context: context) { try self.asker(peer, of: vault) })
        }
    }

    /// `body` in a read turn with the vault, nil when locked (the SSH socket lists and asks
    /// while locked too); current with its file as far as it can be made so.
    func readingAny<Result: ~Copyable>(_ body: (Vault?) throws -> Result) rethrows -> Result {
        if let holding = turns.read({ vault }) { try? refresh(holding) }
        return try turns.read {
            if vault != nil { touch() }
            return try body(vault)
        }
    }

    /// When another process saved the file since `holding` read it: a copy re-reads it, outside
    /// the turns, and takes `holding`'s place in a write turn that lasts a pointer's swap (the
    /// whole file decrypted in a write turn held back every read for it). Not while a write of
    /// the agent's own is under way: the file then differs because that write is saving it, and
    /// what it saved takes the held vault's place as soon as it is done; until then, reads
    /// answer from the vault as it was before the write, which nobody has been told is done.
    private func refresh(_ holding: Vault) throws {
        guard try !holding.isCurrentWithFile(), writing.tryLock() else { return }
        defer { writing.unlock() }
        let fresh = try holding.copy()
        try reread(fresh, replacing: holding)
        turns.write { if vault === holding { vault = fresh } }
    }

    /// Re-reads `copy` (of `holding`) if another process saved the file since: the generation
    /// check, and the identity store when it was stale. A master password changed elsewhere locks
    /// the agent, unless it already holds another vault.
    private func reread(_ copy: Vault, replacing holding: Vault) throws {
        do {
            guard try copy.reloadIfChanged() else { return }
            // An older file is not remembered as the newest seen (the client warns of it).
            context.checkRollback(of: copy)
            context.syncIdentities(with: copy, saved: false)
        } catch VaultError.conflict(_, let reason) {
            turns.write { if vault === holding { vault = nil } }
            throw CommandFailure(.interactionRequired, "locked: \(reason)")
        }
    }

    /// The vault when the request is for it and it is unlocked; in any turn.
    func held(_ path: String) throws -> Vault {
        guard path == context.vaultPath else {
            throw CommandFailure(.interactionRequired, "the agent holds another vault (\(context.vaultPath))")
        }
        guard let vault else { throw CommandFailure(.interactionRequired, "the agent is locked") }
        return vault
    }

    /// Refuses, in a read turn of its own, a request the agent cannot answer (locked, another
    /// vault) before it waits for anything.
    private func requireHeld(_ path: String) throws {
        _ = try turns.read { try held(path) }
    }

    /// Records a `session` approval (`SSHSignApproval`) if the agent has not locked since
    /// `epoch`; in a turn, so that no lock comes between the check and the record.
    @discardableResult
    func rememberApproval(_ grant: SSHSessionApprovals.Grant, ifEpoch epoch: Int? = nil) -> Bool {
        approvals.withLock {
            guard epoch == nil || epoch == sshApprovals.epoch else { return false }
            sshApprovals.remember(grant)
            return true
        }
    }

    /// Whether `grant` was approved for the session, and the approvals' epoch (how many locks).
    func approvalState(of grant: SSHSessionApprovals.Grant) -> (approved: Bool, epoch: Int) {
        approvals.withLock { (sshApprovals.contains(grant), sshApprovals.epoch) }
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
}
