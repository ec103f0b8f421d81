import FoundationEssentials
import Platform
import ServiceMatching
import TUI
import VaultAgent
import VaultCrypto
import VaultModel

/// `git config credential.helper pwtui` (with `git-credential-pwtui` on PATH, which `make install`
/// puts there) or `credential.helper '!pwtui git-credential'`: git's credential-helper protocol.
/// docs/git.md says what each operation does for the user; in short:
///
/// - get: with nobody to look, only a credential saved for this very host answers (the same URL,
///   a path prefix, the same host), never a parent domain's or another host of the same site; with
///   `credential.useHttpPath` (git sends `path=`) only one saved for that repository's URL or a
///   prefix of it. An unlocked agent (or --master-password-fd) answers it at once with
///   `username=` and `password=`, unless that host rejected that very password (see
///   `GitRejections`). Otherwise, when a terminal exists, the picker opens on it ranked for the
///   URL (listed from the identity store before unlocking, answered by the agent when it is
///   unlocked); cancelling there answers `quit=1`. Without a terminal nothing is printed and git
///   moves on to its own prompt (a locked vault is named on stderr).
/// - store (after a successful login): the same password as the saved one confirms it (and lifts
///   a rejection); a different one replaces it, the old one kept in history; a new account is
///   added (for the repository's URL when git sends a path). An empty username or password is
///   stored as sent (single sign-on); a password with an expiry is not (a short-lived token would
///   outlive it here).
/// - erase (after a failed login): with the password git tried, acts only on the credential that
///   holds it (compared in constant time); without one, on every credential get would answer.
///   It remembers that this host rejected them, and with a terminal offers to delete the one
///   that failed. Never deletes silently.
///
/// git's own t0303 and lib-credential.sh's helper_test run against this (docs/git.md).
public struct GitCredentialHelper {
    enum Operation: String, CaseIterable {
        case get, store, erase
    }

    let context: CommandContext

    public init(context: CommandContext) {
        self.context = context
    }

    /// Answers git's `operation` (text, not an `Operation`: `man gitcredentials` asks a helper to
    /// ignore, silently, an operation it does not know — a newer git's) for the request on stdin.
    public func run(operation: String) throws {
        var request = try GitCredentialRequest.read(from: context.streams.input.rawValue)
        guard let operation = Operation(rawValue: operation), let service = try request.service() else { return }
        let path = context.vaultPath
        guard FileSystem.exists(path) else { return }
        let scope = Scope(request, service)
        switch operation {
        case .get: try get(request, scope, path: path)
        case .store:
            let password: SecureBytes
            if let given = request.password.take() {
                password = given
            } else if request.hasEmptyPassword {
                password = try SecureBytes(zeros: 0)  // a host that needs none (single sign-on)
            } else {
                return
            }
            try store(request, scope, password: password)
        case .erase:
            try erase(request, scope, password: request.password.take())
        }
    }

    /// What a request names and which tiers may act on it.
    struct Scope {
        let service: ServiceIdentifier
        /// `scheme://host:port`: who rejected a password.
        let origin: String
        /// What a credential is saved for when git's `store` adds one.
        let storedURL: String
        /// The tiers that answer with nobody to look, and that `store` and `erase` act on: the
        /// credentials saved for this very host. A parent domain's credential is another host's
        /// password (git's "not confused by long header" asks a helper to keep
        /// `victim.example.com`'s from `badguy.example.com`); a person may still choose one in the
        /// picker. With a path (`credential.useHttpPath`), only the repository's own URL or a
        /// prefix of it: another repository on the same host may need another account, and git
        /// sends a path precisely to tell them apart.
        let tiers: Set<MatchKind>
        /// git sent a path (`credential.useHttpPath`).
        let pathScoped: Bool

        init(_ request: borrowing GitCredentialRequest, _ service: ServiceIdentifier) {
            self.service = service
            let scheme = service.scheme?.rawValue ?? "https"
            origin = "\(scheme)://\(service.host):\(service.effectivePort ?? 0)"
            pathScoped = request.path != nil
            if pathScoped {
                storedURL = request.url() ?? service.text
                tiers = [.exactURL, .pathPrefix]
            } else {
                storedURL = "\(scheme)://\(request.fields["host"] ?? service.host)"
                tiers = CredentialQuery.sameHost
            }
        }
    }

    /// `$XDG_STATE_HOME/pwtui/git-rejected`, beside the usage history.
    private var rejectionsPath: String { context.paths.gitRejectionsFile }

    // MARK: get

    /// git's answer; `password` straight from protected memory. git's protocol cannot carry a
    /// line break or NUL in a value (and git drops a CR that ends a line): such a credential
    /// would smuggle extra lines (`username=a` + newline + `password=...`) into git or reach the
    /// server altered, so it is not answered at all.
    private func answer(username: String, password: UnsafeRawBufferPointer) throws {
        func carriable<Bytes: BidirectionalCollection<UInt8>>(_ value: Bytes) -> Bool {
            !value.contains { $0 == 0x0A || $0 == 0 } && value.last != 0x0D
        }
        guard carriable(Array(username.utf8)), carriable(password) else {
            context.streams.say(
                "pwtui: the chosen credential's username or password contains a line break, which git's credential protocol cannot carry; nothing was given to git"
            )
            return
        }
        try context.streams.write("username=\(username)\npassword=")
        try context.streams.write(password)
        try context.streams.write("\n")
    }

    private func answer(_ credential: Credential, from vault: Vault) throws {
        try vault.withSecret(credential.secret) { try answer(username: credential.username, password: $0) }
    }

    private func get(_ request: borrowing GitCredentialRequest, _ scope: Scope, path: String) throws {
        let rejected = GitRejections.load(from: rejectionsPath).rejected(at: scope.origin)
        let automatic = CredentialQuery(
            services: [scope.service], username: request.username, tiers: scope.tiers, rejected: rejected)
        if context.masterPasswordFD != nil {
            // The vault's one opening (its checks), the password read from the descriptor.
            let vault = try context.openVault()
            guard let credential = try? context.answer(automatic, in: vault) else { return }
            try answer(credential, from: vault)
            return
        }
        var locked = true
        do {
            // git shows the helper's stderr: an older file the agent reloaded is said there.
            if let message = try VaultAccess.ask(.get(vault: path, query: automatic, field: .password), in: context),
                case .credential(let identity, _, _) = message.body
            {
                try message.payload.withUnsafeBytes {
                    try answer(username: identity.username, password: CredentialField.value(ofRendered: $0))
                }
                return
            }
        } catch let refusal as AgentRefusal where refusal.status == .noMatch {
            // Nothing for this host itself (or only a rejected password): the person at the
            // terminal may still choose one. A credential bound to other programs: git hears why.
            if WithheldCredential.describes(refusal.message) { context.streams.say("pwtui: \(refusal.message)") }
            locked = false
        }
        guard let terminal = try? context.openTerminal(theme: try context.settings().theme) else {
            // git moves on to its own prompt, or fails with only "could not read Username": say
            // why, to a person. Not on a stderr nobody reads: git's t0303 (helper_test_timeout)
            // takes any word there, from a helper with nothing to give, as a failure.
            if locked { say(Self.lockedAdvice(path)) }
            return
        }
        let flow = Picker.flow(
            on: terminal, vaultPath: path, requests: [scope.service], context: context,
            preferring: request.username, agentField: .password, codes: false)
        let outcome: PickerFlow<Vault, Picker.AgentAnswer>.Outcome
        do {
            defer { terminal.close() }
            outcome = try flow.run()
        }
        switch outcome {
        case .chosen(let vault, let credential), .chosenCode(let vault, let credential):
            // git asks for a password: ^T's one-time code is not one.
            context.recordChoice(of: credential.id, for: [scope.service])
            try answer(credential, from: vault)
        case .answeredWithoutUnlocking(let agentAnswer):
            context.checkRollbackOfFile()
            guard let password = agentAnswer.payload.take() else {
                throw CommandFailure(.ioError, "the agent's answer was lost")
            }
            try password.withUnsafeBytes {
                try answer(username: agentAnswer.identity.username, password: CredentialField.value(ofRendered: $0))
            }
        case .cancelled:
            // Esc on a list with nothing for this host: the person has no account to choose, so
            // git asks for one (and its `store` then saves it). Esc among matches is a refusal:
            // git is told to stop instead of asking on.
            if try !hasMatches(for: scope.service) { return }
            try context.streams.write("quit=1\n")
        case .wrongPassword: throw CommandFailure(.wrongPassword, "wrong master password for \(path)")
        }
    }

    /// Whether the picker listed any credential for `service`: from the identity store (which
    /// the picker's unlocking refreshed), else an unlocked agent's identities, as the picker
    /// lists them; with neither, yes: git is told to stop, as before.
    private func hasMatches(for service: ServiceIdentifier) throws -> Bool {
        let listed: (identities: [IdentityStore.Identity], equivalents: EquivalentDomains)
        if let store = try? context.currentIdentityStore() {
            listed = (store.identities, store.equivalents)
        } else if let fromAgent = (try? VaultAccess.agentIdentities(of: context.vaultPath, in: context)) ?? nil {
            listed = fromAgent
        } else {
            return true
        }
        let credentials = listed.identities.compactMap { try? $0.secretlessCredential() }
        return !CredentialRanking.matches(
            credentials, for: [service], context: context.rankingContext(equivalents: listed.equivalents)
        ).isEmpty
    }

    // MARK: store

    /// git stores only after the server accepted the password, so the request is the truth: the
    /// same password confirms the saved one, a different one replaces it (the old one stays in
    /// the credential's history), and a new account is added.
    private func store(_ request: borrowing GitCredentialRequest, _ scope: Scope, password: consuming SecureBytes)
        throws
    {
        guard let username = request.storedUsername else { return }  // git always names one, if only `username=`
        // A password that expires (an OAuth token another helper made, git 2.41+) would be kept
        // here for good and offered after it died.
        guard request.passwordExpiry == nil else { return }
        guard let access = try? VaultAccess.open(context) else {
            say(Self.lockedAdvice(context.vaultPath) + "; git's login to \(scope.service.host) was not saved")
            return
        }
        // The password worked: the credential holding it is confirmed, also one a person chose
        // in the picker for a parent domain (not copied to every subdomain it logs in to). With
        // a path, the host's credential instead gains the repository's URL (below).
        let chosen = CredentialQuery(
            services: [scope.service], username: username,
            tiers: scope.pathScoped ? scope.tiers : CredentialQuery.hostLevel)
        if let answered = try access.password(for: chosen), answered.password.isEqual(to: password) {
            try confirm(answered.identity.id, at: scope.origin)
            return
        }
        let account = CredentialQuery(services: [scope.service], username: username, tiers: scope.tiers)
        guard let existing = try access.password(for: account) else {
            // With a path: the account saved for the host (or another repository of it) logged in
            // here too (a person chose it in the picker). This repository's URL joins that
            // credential rather than a copy of the password that would go stale on its own.
            if scope.pathScoped {
                let host = CredentialQuery(
                    services: [scope.service], username: username, tiers: CredentialQuery.sameHost)
                if let same = try access.password(for: host), same.password.isEqual(to: password) {
                    try access.apply(
                        .edit(id: same.identity.id.uuidString, CredentialChange.Edits(addServices: [scope.storedURL])),
                        secret: try SecureBytes(zeros: 0))
                    try confirm(same.identity.id, at: scope.origin)
                    return
                }
            }
            try access.apply(
                .add(services: [scope.storedURL], username: username, title: "", notes: "", rank: 0), secret: password)
            return
        }
        if !existing.password.isEqual(to: password) {
            try access.apply(
                .edit(id: existing.identity.id.uuidString, CredentialChange.Edits(replacesSecret: true)),
                secret: password)
            say(
                "pwtui: git logged in to \(scope.service.host) as \(username) with a new password; \(existing.identity.displayTitle) now has it, and the previous one is in its history"
            )
        }
        try confirm(existing.identity.id, at: scope.origin)
    }

    /// The host accepted this credential's password: forget that it once rejected it.
    private func confirm(_ id: UUID, at origin: String) throws {
        var rejections = GitRejections.load(from: rejectionsPath)
        guard rejections.clear(id, at: origin) else { return }
        try rejections.save(to: rejectionsPath)
    }

    /// Locked, with nobody to ask for the master password.
    static func lockedAdvice(_ path: String) -> String {
        "pwtui: \(path) is locked and there is no terminal to ask for its master password: run `pwtui unlock` (the agent then answers git until it locks), or give the helper --master-password-fd"
    }

    /// A word for the person, on stderr when it is a terminal (git passes its own). git's
    /// protocol has no channel for it otherwise: scripts and git's tests read the helper's
    /// stderr as an error.
    private func say(_ text: String) {
        if context.streams.messagesAreSeen { context.streams.say(text) }
    }

    // MARK: erase

    /// git's `reject` after a failed login. With the password git tried, it acts on the credential
    /// that holds that password; without one ("forget this host", "forget this user"), on every
    /// credential `get` would answer with for the request. It never deletes silently: it marks
    /// them rejected at this origin, so `get` stops answering with them (git then asks its own
    /// prompt), and with a terminal offers to delete the one whose password failed.
    private func erase(_ request: borrowing GitCredentialRequest, _ scope: Scope, password: consuming SecureBytes?)
        throws
    {
        // Locked and no way to ask: nothing to compare with.
        guard let access = try? VaultAccess.open(context) else { return }
        var rejections = GitRejections.load(from: rejectionsPath)
        guard let password else {
            // Each answer is marked and excluded from the next question, until none is left.
            var marked: Set<UUID> = []
            while let found = try access.password(
                for: CredentialQuery(
                    services: [scope.service], username: request.username,
                    tiers: scope.tiers, rejected: rejections.rejected(at: scope.origin))),
                marked.insert(found.identity.id).inserted
            {
                rejections.markRejected(found.identity.id, secretSet: found.secretSet, at: scope.origin)
            }
            if !marked.isEmpty { try rejections.save(to: rejectionsPath) }
            return
        }
        // What get would have answered, else this host's own credential for that user (one
        // rejected before): erase acts only on the one whose saved password git tried.
        let queries = [
            CredentialQuery(
                services: [scope.service], username: request.username, tiers: scope.tiers,
                rejected: rejections.rejected(at: scope.origin)),
            CredentialQuery(services: [scope.service], username: request.username, tiers: scope.tiers),
        ]
        var tried: FoundPassword?
        for query in queries {
            guard let found = try access.password(for: query) else { continue }
            if found.password.isEqual(to: password) {
                tried = consume found
                break
            }
        }
        guard let tried else { return }
        let title = tried.identity.displayTitle
        rejections.markRejected(tried.identity.id, secretSet: tried.secretSet, at: scope.origin)
        try rejections.save(to: rejectionsPath)
        guard let terminal = context.terminalPrompt() else {
            say(
                "pwtui: \(scope.service.host) rejected the saved password of \(title); it is kept, and not given to git again without asking until it is changed or works again"
            )
            return
        }
        // The server's password changed far more often than the account went away: a new
        // password first (the old one kept in the history), deleting only when that is declined.
        let id = tried.identity.id.uuidString.lowercased().prefix(8)
        let named = "\(title) (\(id))"
        if try terminal.confirm(
            "Git says the login to \(scope.service.host) as \(tried.identity.username) failed. Type a new password for \(named)?"
        ) {
            terminal.say("The old password stays in its history (pwtui history \(id)).\n")
            let new = try SecretReader.typedTwice(
                label: "password for \(title)", otherwise: "pwtui edit \(id) --password", from: context.streams)
            try access.apply(
                .edit(id: tried.identity.id.uuidString, CredentialChange.Edits(replacesSecret: true)), secret: new)
            // The rejection was of the old password: the new one is given to git's next get.
            rejections.clear(tried.identity.id, at: scope.origin)
            try rejections.save(to: rejectionsPath)
            terminal.say("Saved; run the git command again.\n")
            return
        }
        guard try terminal.confirm("Delete the saved credential \(named) instead?") else { return }
        try access.apply(.remove(id: tried.identity.id.uuidString), secret: try SecureBytes(zeros: 0))
        rejections.clear(tried.identity.id, at: scope.origin)
        try rejections.save(to: rejectionsPath)
    }
}
