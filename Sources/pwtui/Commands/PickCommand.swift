import ArgumentParser
import Foundation
import TUI
import VaultCrypto
import VaultModel
import ServiceMatching

struct PickCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pick",
        abstract: "Choose a credential in a list ranked for SERVICE(s); the choice goes to stdout or the clipboard.",
        discussion: """
            Drawn on the terminal (/dev/tty), so `x=$(pwtui pick github.com)` captures only the answer. \
            With stdout a terminal, the password is copied to the clipboard instead. Esc cancels (exit 130).
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "Services to rank for, most specific first (none: list everything).")
    var services: [String] = []

    @Option(help: "What a pipe receives: password, username, both (username, newline, password) or json.")
    var output: CredentialField = .password

    func run() throws {
        let requests = try services.map { try ServiceIdentifier($0) }
        let path = global.vaultPath
        try VaultStorage.requireVaultFile(path)
        let unlocked = try global.masterPasswordFD.map { fd in
            try Vault.open(at: path, password: try SecretReader.firstLine(of: fd, what: "--master-password-fd"))
        }
        try Self.runPicker(vaultPath: path, requests: requests, global: global, output: output, unlocked: unlocked)
    }

    /// The picker on the terminal, then the handover of the choice (shared with `demo`).
    static func runPicker(vaultPath path: String, requests: [ServiceIdentifier], global: GlobalOptions,
                          output: CredentialField, unlocked: Vault? = nil, passwordHint: String? = nil,
                          terminal existing: NcursesTerminal? = nil) throws {
        let settings = try global.settings()
        let terminal = try existing ?? openTerminal(theme: settings.theme)
        let answer = AgentAnswer()
        let flow = Self.flow(on: terminal, vaultPath: path, requests: requests, global: global, passwordHint: passwordHint,
                             agentField: unlocked == nil ? Handover.field(for: output) : nil, answer: answer)
        let outcome: PickerFlow.Outcome
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
            try Handover.deliver(credential, from: vault, field: output, clipboardTimeout: settings.clipboardTimeout)
        case .answeredWithoutUnlocking:
            guard let rendered = answer.payload.take() else { throw CommandFailure(.ioError, "the agent's answer was lost") }
            try Handover.deliver(rendered, of: answer.identity?.summary ?? "the credential", clipboardTimeout: settings.clipboardTimeout)
        }
    }

    /// What an unlocked agent answered for a choice made before unlocking.
    final class AgentAnswer {
        var payload: SecureBytes?
        var identity: IdentityStore.Identity?
    }

    /// The picker flow for `requests` (none: everything). When the identity store is current (or
    /// an unlocked agent can list the identities) the list comes at once; a choice is then answered by an unlocked agent (`agentField`
    /// of it, into `answer`) or, failing that, after the master password. Unlocking here also
    /// refreshes the identity store. `preferring` a username lists that account's credentials
    /// first (git names one).
    static func flow(on terminal: Terminal, vaultPath path: String, requests: [ServiceIdentifier], global: GlobalOptions,
                     passwordHint: String? = nil, preferring username: String? = nil,
                     agentField: CredentialField?, answer: AgentAnswer) -> PickerFlow {
        func order(_ credentials: [Credential], _ context: @autoclosure () -> RankingContext) -> [RankedCredential] {
            let ranked = requests.isEmpty
                ? CredentialRanking.rank(credentials, for: [], context: RankingContext(suffixes: NoPublicSuffixList()))
                : CredentialRanking.rank(credentials, for: requests, context: context())
            guard let username else { return ranked }
            return ranked.filter { $0.credential.username == username } + ranked.filter { $0.credential.username != username }
        }
        // No agent field: the vault is open already (a descriptor gave the password), no preview.
        let agent = global.masterPasswordFD == nil ? AgentClient.current : nil
        // The list before unlocking: from the identity store (it mirrors the configured vault
        // only, not `demo`'s), else from an unlocked agent (the store may be off).
        var listed: (identities: [IdentityStore.Identity], equivalents: EquivalentDomains)?
        if agentField != nil, path == global.vaultPath {
            if let store = try? global.currentIdentityStore() {
                listed = (store.identities, store.equivalents)
            } else if let fromAgent = try? agent?.identities(vault: path) {
                listed = fromAgent
            }
        }
        var answerWithoutUnlocking: ((UUID) throws -> Bool)?
        if let agent, let agentField {
            answerWithoutUnlocking = { id in
                guard let message = try agent.get(CredentialQuery(id: id.uuidString), field: agentField, vault: path) else { return false }
                answer.identity = message.identity
                answer.payload = message.takePayload()
                return true
            }
        }
        let preview = listed.map { listed in
            order(listed.identities.compactMap { try? $0.secretlessCredential() }, global.rankingContext(equivalents: listed.equivalents))
        }
        // A passwd killed midway: which master password to type is said where it is typed.
        let interrupted = PasswordChangeMarker.pending(vaultPath: path)
        return PickerFlow(
            terminal: terminal, vaultPath: path, passwordHint: interrupted?.short ?? passwordHint,
            requestLabel: requests.isEmpty ? nil : requests.map(\.text).joined(separator: " "),
            preview: preview,
            answerWithoutUnlocking: answerWithoutUnlocking,
            commandName: Invocation.current.command,
            unlock: { password in
                let vault = try Vault.open(at: path, password: password)
                interrupted?.marker.remove()
                global.syncIdentities(with: vault, previousGeneration: nil)
                return vault
            },
            rank: { vault in order(vault.contents.credentials, global.rankingContext(for: vault)) })
    }

    static func openTerminal(theme: String) throws -> NcursesTerminal {
        do {
            return try NcursesTerminal(theme: ThemeLocator.current(named: theme))
        } catch {
            throw CommandFailure(.interactionRequired, "\(error); use 'pwtui get' in scripts")
        }
    }
}
