import FoundationEssentials
import Platform
import ServiceMatching
import TUI
import VaultAgent
import VaultCrypto
import VaultModel

/// The picker on the terminal (AutoFill's credential list, with its authentication screen), then
/// the handover of the choice: `pick`, plain `pwtui`, `demo`, and git's helper with a terminal.
public enum Picker {
    /// `pwtui pick`: the picker ranked for `services` (none: everything); with
    /// `--master-password-fd` the vault is opened first and the list comes at once.
    public static func pick(_ services: [String], output: CredentialField, in context: CommandContext) throws {
        let requests = try services.map { try ServiceIdentifier($0) }
        let path = context.vaultPath
        try VaultStorage.requireVaultFile(path)
        // The vault's one opening (its checks), the password read from the descriptor.
        let unlocked = try context.masterPasswordFD.map { _ in try context.openVault() }
        try run(vaultPath: path, requests: requests, context: context, output: output, unlocked: unlocked)
    }

    /// The picker on the terminal, then the handover of the choice (shared with `demo`).
    public static func run(
        vaultPath path: String, requests: [ServiceIdentifier], context: CommandContext,
        output: CredentialField, unlocked: Vault? = nil, passwordHint: String? = nil,
        terminal existing: (any Terminal)? = nil
    ) throws {
        let settings = try context.settings()
        let terminal = try existing ?? context.openTerminal(theme: settings.theme)
        let flow = Self.flow(
            on: terminal, vaultPath: path, requests: requests, context: context, passwordHint: passwordHint,
            agentField: unlocked == nil ? Handover.field(for: output, in: context) : nil)
        let outcome: PickerFlow<Vault, AgentAnswer>.Outcome
        do {
            defer { terminal.close() }
            outcome = try flow.run(unlocked: unlocked)
        }
        switch outcome {
        case .cancelled:
            throw CommandFailure(.cancelled, "cancelled")
        case .wrongPassword(let attempts):
            throw CommandFailure(.wrongPassword, "wrong master password \(attempts) times for \(path)")
        case .chosen(let vault, let credential):
            context.recordChoice(of: credential.id, for: requests)
            try Handover.deliver(
                credential, from: vault, field: output, clipboardTimeout: settings.clipboardTimeout,
                in: context)
        case .chosenCode(let vault, let credential):
            context.recordChoice(of: credential.id, for: requests)
            try Handover.deliver(
                credential, from: vault, field: .totp, clipboardTimeout: settings.clipboardTimeout,
                in: context)
        case .answeredWithoutUnlocking(let answer):
            // The agent recorded the use (its query named the requests). Its vault is the file's:
            // an older copy put in place is said here, once the screen is gone, as `get` says it.
            context.checkRollbackOfFile()
            guard let rendered = answer.payload.take() else {
                throw CommandFailure(.ioError, "the agent's answer was lost")
            }
            try Handover.deliver(
                rendered, answer.field, of: answer.identity.summary, clipboardTimeout: settings.clipboardTimeout,
                in: context)
        }
    }

    /// What an unlocked agent answered for a choice made before unlocking: the picker's result.
    /// A class, so the protected payload (not copyable) can travel in the flow's outcome.
    final class AgentAnswer {
        var payload: SecureBytes?
        let identity: IdentityStore.Identity
        /// What the payload is: the password (or the field a pipe asked for), or the code (^T).
        let field: CredentialField

        init(payload: consuming SecureBytes?, identity: IdentityStore.Identity, field: CredentialField) {
            self.payload = payload
            self.identity = identity
            self.field = field
        }
    }

    /// The picker flow for `requests` (none: everything). When the identity store is current (or
    /// an unlocked agent can list the identities) the list comes at once; a choice is then answered by an unlocked agent (`agentField`
    /// of it, as the outcome) or, failing that, after the master password. Unlocking here also
    /// refreshes the identity store. `preferring` a username lists that account's credentials
    /// first (git names one).
    static func flow(
        on terminal: Terminal, vaultPath path: String, requests: [ServiceIdentifier], context: CommandContext,
        passwordHint: String? = nil, preferring username: String? = nil,
        agentField: CredentialField?, codes: Bool = true
    ) -> PickerFlow<Vault, AgentAnswer> {
        func order(_ credentials: [Credential], _ ranking: @autoclosure () -> RankingContext) -> [RankedCredential] {
            let ranked =
                requests.isEmpty
                ? CredentialRanking.rank(credentials, for: [], context: RankingContext(suffixes: NoPublicSuffixList()))
                : CredentialRanking.rank(credentials, for: requests, context: ranking())
            guard let username else { return ranked }
            return ranked.filter { $0.credential.username == username }
                + ranked.filter { $0.credential.username != username }
        }
        // No agent field: the vault is open already (a descriptor gave the password), no preview.
        let agentMayAnswer = agentField != nil && VaultAccess.agentMayAnswer(context)
        // The list before unlocking: from the identity store (it mirrors the configured vault
        // only, not `demo`'s), else from an unlocked agent (the store may be off).
        var listed: (identities: [IdentityStore.Identity], equivalents: EquivalentDomains)?
        if agentField != nil, path == context.vaultPath {
            if let store = try? context.currentIdentityStore() {
                listed = (store.identities, store.equivalents)
            } else if let fromAgent = try? VaultAccess.agentIdentities(of: path, in: context) {
                listed = fromAgent
            }
        }
        func answer(_ field: CredentialField) -> ((UUID) throws -> AgentAnswer?)? {
            guard agentMayAnswer else { return nil }
            return { id in
                // The requests with the id: a choice counts as a use for them (the next `get` prefers it).
                let query = CredentialQuery(id: id.uuidString, services: requests)
                guard let message = try VaultAccess.ask(.get(vault: path, query: query, field: field), in: context)
                else { return nil }
                guard case .credential(let identity, _, _) = message.body else {
                    throw AgentError.unexpected(message.body)
                }
                return AgentAnswer(payload: message.takePayload(), identity: identity, field: field)
            }
        }
        let audit = PickerAudit(context)
        let source = audit.breachSource
        let agentReport = PickerAudit.AgentReport()
        let previewAudit = VaultAccess.agentAuditor(of: path, in: context).map { auditor in
            { @Sendable in PickerAudit.kinds(from: auditor, breachSource: source, keeping: agentReport) }
        }
        // The details of a listed credential from the unlocked agent, without the master password.
        let agentDetails: ((UUID) throws -> (any CredentialDetails)?)? = listed.flatMap { listed in
            guard agentMayAnswer else { return nil }
            let ranking = context.rankingContext(equivalents: listed.equivalents)
            // Any failure (locked meanwhile, removed by another process): unlock here, as before.
            return { id in
                (try? AgentCredentialDetails(
                    id, vaultPath: path, requests: requests, ranking: ranking, context: context,
                    findings: agentReport.report?.findings(of: id) ?? [])) ?? nil
            }
        }
        let preview = listed.map { listed in
            order(
                listed.identities.compactMap { try? $0.secretlessCredential() },
                context.rankingContext(equivalents: listed.equivalents))
        }
        // A passwd killed midway: which master password to type is said where it is typed.
        let interrupted = PasswordChangeMarker.pending(vaultPath: path)
        return PickerFlow(
            terminal: terminal, vaultPath: path, passwordHint: interrupted?.short ?? passwordHint,
            requestLabel: requests.isEmpty ? nil : requests.map(\.text).joined(separator: " "),
            preview: preview,
            answerWithoutUnlocking: agentField.flatMap(answer), codeWithoutUnlocking: codes ? answer(.totp) : nil,
            commandName: Invocation.current(context.environment).command,
            details: { vault, id in
                VaultCredentialDetails(
                    id, in: vault, requests: requests, context: context,
                    findings: audit.report(for: vault)?.findings(of: id) ?? [])
            },
            detailsWithoutUnlocking: agentDetails,
            audit: { vault in audit.report(for: vault)?.kindsByCredential ?? [:] },
            previewAudit: listed == nil || !agentMayAnswer ? nil : previewAudit,
            unlock: { password in
                let vault = try context.open(path, password: password, interrupted: interrupted?.marker)
                if path == context.vaultPath { AgentControl.keepUnlocked(with: password, in: context) }
                return vault
            },
            rank: { vault in order(vault.contents.credentials, context.rankingContext(for: vault)) },
            credential: { vault, id in vault.contents.credential(withID: id) })
    }
}
