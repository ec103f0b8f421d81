import FoundationEssentials
import Platform
import ServiceMatching
import TUI
import VaultAgent
import VaultCrypto
import VaultModel

/// Everything a command needs from around it, resolved once per process: which vault and
/// settings file, where local state lives, the master password's source, the suffix list, and
/// how to reach the agent. The executable builds one from its options; tests build one around
/// a temporary directory and an agent in the same process.
public final class CommandContext {
    public let environment: Environment
    public let paths: Paths
    /// `--config`, else the XDG settings file.
    public let configPath: String
    /// `--config` as given (passed on to an agent started in the background).
    public let configOption: String?
    /// `--master-password-fd`: the password comes from there, and the agent is not used.
    public let masterPasswordFD: Int32?
    /// Where the command writes, reads and asks (`StandardStreams`): the process's own streams
    /// and terminal, or a test's.
    public var streams: StandardStreams
    /// Whether a master password typed here also unlocks the agent (`agent = "auto"`,
    /// `AgentControl.keepUnlocked`). Only the pwtui executable turns it on: a library caller (a
    /// test) has no `pwtui` to start as the agent.
    public var sharesUnlocks = false
    /// The chain of processes that asks, from a pid, at most `depth` of them (`ProcessChain.of`:
    /// /proc): a test puts a program of its choosing there, to be the asking one.
    public var processChainUpTo: @Sendable (_ pid: Int32, _ depth: Int) -> ProcessChain = {
        ProcessChain.of($0, depth: $1)
    }
    /// The whole chain (`processChainUpTo`); a test that sets it sets that.
    public var processChain: @Sendable (Int32) -> ProcessChain {
        get { { [processChainUpTo] in processChainUpTo($0, ProcessChain.maximumDepth) } }
        set { processChainUpTo = { pid, _ in newValue(pid) } }
    }
    /// Whether a connection's peer is still the process that connected (`PeerProcess`): a test
    /// that names a made-up pid says yes here, or no, to be a requester that exec'd since.
    public var peerIsUnchanged: @Sendable (PeerProcess) -> Bool = { $0.isUnchanged() }
    /// Where the agent asks the user to approve a signature, or for the master password when a
    /// signature comes while it is locked (`SSHApprovalPlaces`): a test puts its own answers.
    public lazy var sshPrompter: any SSHApprovalPrompter = SSHApprovalPlaces(
        runtimeDirectory: paths.runtimeDirectory, environment: environment.variables)
    private let vaultOption: String?
    private var loadedSettings: Settings?
    private var loadedSuffixes: PublicSuffixList?
    /// The use history, read again only when its file changes (`UsageHistoryFile`). The agent
    /// defers its writes (`defersUsageWrites`, before first use).
    public private(set) lazy var usageHistory = UsageHistoryFile(
        path: paths.usageFile, defersWrites: defersUsageWrites)
    /// Whether uses are written at the next `usageHistory.flush()` rather than at once: for a
    /// process that answers many requests, and flushes as it goes (the agent).
    public var defersUsageWrites = false
    /// The last equivalents combined with the built-in groups, and the result: an agent ranks
    /// with the same ones request after request, and combining them was a tenth of a `get`.
    private var combinedEquivalents: (user: EquivalentDomains, disabled: Set<String>, combined: EquivalentDomains)?
    /// Guards `combinedEquivalents`: the agent ranks for several requests at once.
    private let combining = Lock()
    private var resolvedVaultChoice: VaultChoice?
    private var resolvedAgent: AgentClient??
    /// For a process that asks the agent many times a second for as long as it runs (the Secret
    /// Service's relay), set before the agent is first asked: the file's rollback check follows
    /// its first answer only (`VaultAccess`): the agent checks each version of the file it reads,
    /// and warns in its own log.
    public var asksAgentOften = false
    /// Whether an answer from the agent has been checked (`asksAgentOften`).
    var checkedAnAgentAnswer = false

    public init(
        vault: String? = nil, config: String? = nil, masterPasswordFD: Int32? = nil,
        environment: Environment = .process,
        streams: StandardStreams = .process()
    ) {
        self.environment = environment
        self.streams = streams
        paths = Paths(environment: environment)
        vaultOption = vault.flatMap { $0.isEmpty ? nil : $0 }
        configOption = config.flatMap { $0.isEmpty ? nil : $0 }
        configPath = configOption ?? paths.settingsFile
        self.masterPasswordFD = masterPasswordFD
    }

    /// The settings; a file others can write, or one that does not parse, is a usage error.
    public func settings() throws -> Settings {
        if let loadedSettings { return loadedSettings }
        do {
            let settings = try Settings.load(from: configPath)
            loadedSettings = settings
            return settings
        } catch {
            throw CommandFailure(.usage, error.description)
        }
    }

    /// The vault path: --vault, then PWTUI_VAULT, then the settings, then the XDG data directory.
    public var vaultPath: String { vaultChoice.path }

    /// The vault path and what named it (`VaultChoice`), resolved once.
    public var vaultChoice: VaultChoice {
        if let resolvedVaultChoice { return resolvedVaultChoice }
        let choice: VaultChoice
        if let vaultOption {
            choice = VaultChoice(path: vaultOption, source: .option)
        } else if let named = environment["PWTUI_VAULT"], !named.isEmpty {
            choice = VaultChoice(path: named, source: .environment)
        } else if let named = (try? settings())?.vault, !named.isEmpty {
            choice = VaultChoice(path: named, source: .settings(configPath))
        } else {
            choice = VaultChoice(path: paths.defaultVaultFile, source: .defaultLocation)
        }
        resolvedVaultChoice = choice
        return choice
    }

    /// The agent that may answer for this command: none when the master password comes from a
    /// descriptor (a local unlock was asked for).
    public var agent: AgentClient? {
        masterPasswordFD == nil ? agentClient : nil
    }

    /// This user's agent, if its directory is sound (a client never creates it), whether or not
    /// this command may use it; looked up once. Tests put an agent in the same process here.
    public var agentClient: AgentClient? {
        get {
            if let resolvedAgent { return resolvedAgent }
            let client = try? agentClient(creatingDirectory: false)
            resolvedAgent = .some(client)
            return client
        }
        set { resolvedAgent = .some(newValue) }
    }

    /// This user's agent at `Paths.agentSocket`, its directory checked (and made 0700 when
    /// `creatingDirectory`: `agent start`, `unlock`); an agent put here by a test as it is.
    /// Its requests share one connection (`AgentKeptConnection`): an `add` asks three times, and
    /// each new connection cost the agent an accept, a thread and a read of the peer's /proc.
    public func agentClient(creatingDirectory: Bool) throws -> AgentClient {
        if let resolvedAgent, let client = resolvedAgent, client.socketPath == nil { return client }
        try AgentClient.requireTrusted(paths.runtimeDirectory, creating: creatingDirectory)
        return AgentClient(socketPath: paths.agentSocket, keepingConnection: true)
    }

    /// The Public Suffix List (`PWTUI_PSL_FILE` names another list file), loaded once. Without
    /// a list, says so on stderr and ranks without same-site matches.
    public var suffixes: PublicSuffixList {
        if let loadedSuffixes { return loadedSuffixes }
        let file = environment["PWTUI_PSL_FILE"]
        let list: PublicSuffixList
        if let loaded = LibPSL(file: file) {
            list = loaded
        } else {
            streams.say(
                "pwtui: the Public Suffix List could not be loaded\(file.map { " from \($0)" } ?? ""); "
                    + "matching exact hosts and parent domains only")
            list = NoPublicSuffixList()
        }
        loadedSuffixes = list
        return list
    }

    /// What ranking needs: the suffix list, the vault's equivalent domains, the local use history.
    public func rankingContext(for vault: Vault) -> RankingContext {
        rankingContext(equivalents: vault.contents.equivalents)
    }

    /// Ranking without the vault (identities from the store or the agent).
    public func rankingContext(equivalents: EquivalentDomains) -> RankingContext {
        let disabled = Set((try? settings())?.disabledEquivalents ?? [])
        let combined = combining.withLock {
            if let last = combinedEquivalents, last.user == equivalents, last.disabled == disabled {
                return last.combined
            }
            let combined = BuiltInEquivalents.combined(with: equivalents, disabled: disabled)
            combinedEquivalents = (equivalents, disabled, combined)
            return combined
        }
        return RankingContext(suffixes: suffixes, equivalents: combined, usage: usageHistory.read())
    }

    /// The answer to `query` in `vault`; a match by services is remembered in the use history
    /// (a tie-break in later rankings). Failing to record it must not fail the answer.
    public func answer(_ query: CredentialQuery, in vault: Vault) throws -> Credential {
        try rankedAnswer(query, in: vault).credential
    }

    /// `answer`, and how many credentials were equally good (`CredentialQuery.rankedAnswer`).
    /// An id with services (`get SERVICE --id ID`, a choice in the picker) is that credential,
    /// and counts as its use for the services.
    public func rankedAnswer(_ query: CredentialQuery, in vault: Vault) throws -> (credential: Credential, tied: Int) {
        var query = query
        // Who asks matters only when something is bound (then /proc is read: see ProcessChain).
        if query.askingProgram == nil {
            query.askingProgram =
                vault.contents.hasBoundCredentials ? processChain(CurrentProcess.id) : ProcessChain(members: [])
        }
        if let id = query.id {
            let credential = try vault.credential(id: id)
            if let asking = query.askingProgram { try credential.requireGiven(to: asking) }
            recordChoice(of: credential.id, for: query.services)
            return (credential, 1)
        }
        let ranking = rankingContext(for: vault)
        // A title names its credential: no service to record a use for.
        if query.title != nil { return try query.rankedAnswer(in: vault, context: ranking) }
        let answer = try query.rankedAnswer(in: vault, context: ranking)
        recordChoice(of: answer.credential.id, for: query.services)
        return answer
    }

    /// A credential chosen or answered for `requests` (none: nothing to remember) is used for the
    /// first of them: later rankings prefer it there. Failing to record it must not fail the answer.
    public func recordChoice(of id: UUID, for requests: [ServiceIdentifier]) {
        guard let request = requests.first else { return }
        try? usageHistory.update { $0.recordUse(of: id, for: request.host, at: Clock.system.now()) }
    }

    /// Parses services a user gives for a credential (see `CredentialChange.credentialServices`).
    public func credentialServices(_ texts: [String]) throws -> [ServiceIdentifier] {
        try CredentialChange.credentialServices(texts, suffixes: self.suffixes)
    }

    /// Says, for a service being added, that a domain which is itself a public suffix
    /// (`github.io`, `s3.amazonaws.com`) will be offered only to that exact host: every name
    /// under it belongs to someone else, and ranking never matches them.
    public func notePublicSuffixes(_ services: [ServiceIdentifier]) {
        let candidates = services.filter { $0.hostKind == .name && !$0.isSingleLabel && !$0.isWildcard }
        guard !candidates.isEmpty else { return }
        for service in candidates where suffixes.isPublicSuffix(service.host) {
            streams.say(
                "Note: \(service.host) is a public suffix: this credential is offered to \(service.host) itself only, "
                    + "never to sites under it (such as example.\(service.host)), which belong to others.")
        }
    }

    /// `body` with the master password: from the descriptor, one try (a script's password is
    /// right or not); typed on the terminal, up to three, as the picker's screen allows, so a
    /// mistyped password is typed again here and not into the shell after an exit.
    public func withMasterPassword<T>(prompt: String = "Master password: ", _ body: (borrowing SecureBytes) throws -> T)
        throws -> T
    {
        let tries = masterPasswordFD == nil ? MasterPasswordScreen<Vault>.defaultMaximumAttempts : 1
        var attempt = 1
        while true {
            let password = try masterPassword(prompt: prompt)
            do {
                return try body(password)
            } catch {
                guard attempt < tries, Self.isWrongPassword(error) else { throw error }
                let left = tries - attempt
                streams.say("Wrong master password; try again (\(left) \(left == 1 ? "try" : "tries") left).")
                attempt += 1
            }
        }
    }

    static func isWrongPassword(_ error: any Error) -> Bool {
        if case VaultError.wrongPassword = error { return true }
        if let refusal = error as? AgentRefusal { return refusal.status == .wrongPassword }
        return false
    }

    /// The master password, from the descriptor if one was given, else from the terminal.
    public func masterPassword(prompt: String = "Master password: ") throws -> SecureBytes {
        if let masterPasswordFD {
            return try SecretReader.firstLine(of: masterPasswordFD, what: "--master-password-fd")
        }
        guard let terminal = terminalPrompt() else {
            throw CommandFailure(
                .interactionRequired,
                "the vault is locked and there is no terminal to ask for the master password; pass --master-password-fd N"
            )
        }
        return try terminal.readSecret(prompt: prompt)
    }
}
