import FoundationEssentials
import VaultCrypto
import VaultModel

/// The picker as a whole (AutoFill's extension: authenticate, list, complete or cancel), composed
/// of two screens run by `Terminal.run`: `CredentialListScreen` and `MasterPasswordScreen`. It
/// runs on any `Terminal`, so tests drive the real flow through `GridTerminal`.
///
/// With a `preview` (the identity store, ranked: no secrets) the list comes first, at once; a
/// choice is then answered without unlocking when `answerWithoutUnlocking` can (an unlocked
/// agent), and only otherwise is the master password asked for — Esc there goes back to the
/// list, as it was. Without a preview, the master-password screen comes first (three tries), then
/// the list from what unlocking opened.
///
/// → on the list opens the credential's details (`CredentialDetailScreen`, when `details` is
/// given): from a preview they come from `detailsWithoutUnlocking` when it can give them (an
/// unlocked agent: Enter there uses the credential as the list's Enter would, without unlocking);
/// otherwise the secrets they show need what unlocking opens, so the master password is asked for
/// first ("To see …"); Esc there goes back to the list, Enter uses the credential.
///
/// Generic over what unlocking opens (`Unlocked`: a vault, for pwtui) and what an answer given
/// without unlocking is (`Answer`: the agent's reply), so the flow knows the order of the screens
/// and nothing of vaults or agents; both come back in the outcome, the run's one result.
public struct PickerFlow<Unlocked, Answer> {
    public enum Outcome {
        case chosen(Unlocked, Credential)
        /// ^T: the credential's one-time code is wanted, not its password.
        case chosenCode(Unlocked, Credential)
        /// Chosen from the preview and answered by `answerWithoutUnlocking`.
        case answeredWithoutUnlocking(Answer)
        case cancelled
        case wrongPassword(attempts: Int)
    }

    public static var maximumAttempts: Int { MasterPasswordScreen<Unlocked>.defaultMaximumAttempts }

    let terminal: Terminal
    let vaultPath: String
    let passwordHint: String?
    let unlock: (borrowing SecureBytes) throws -> Unlocked
    let rank: (Unlocked) -> [RankedCredential]
    let credential: (Unlocked, UUID) -> Credential?
    let requestLabel: String?
    /// The list's name without a request, and whether ^T is offered (`CredentialListScreen`).
    let listTitle: String
    let offersCodes: Bool
    let unlockingMessage: String
    let preview: [RankedCredential]?
    let answerWithoutUnlocking: ((UUID) throws -> Answer?)?
    /// As `answerWithoutUnlocking`, for a one-time code.
    let codeWithoutUnlocking: ((UUID) throws -> Answer?)?
    let commandName: String
    let details: ((Unlocked, UUID) throws -> (any CredentialDetails)?)?
    /// The details of a preview's credential without unlocking; nil (or its nil): unlock first.
    let detailsWithoutUnlocking: ((UUID) throws -> (any CredentialDetails)?)?
    /// What an audit finds in what was unlocked, for marking the list's rows; nil: no marks.
    let audit: ((Unlocked) -> [UUID: Set<AuditFinding.Kind>])?
    /// The same for the preview, before anything is unlocked (an unlocked agent's audit), asked
    /// after the list's first frame; nil: the preview has no marks.
    let previewAudit: (@Sendable () -> [UUID: Set<AuditFinding.Kind>])?

    /// `unlock` opens with a password (throwing `VaultError.wrongPassword` for a wrong one);
    /// `rank` orders what it opened for the request; `credential` finds one there by id.
    /// `requestLabel` names the request in headings (nil: everything is listed). `preview`: the
    /// list to show before unlocking; `answerWithoutUnlocking`: the answer for a chosen id when
    /// it can give one without the master password (nil: it cannot); `commandName`: how to run
    /// pwtui in a hint (its full path when it is not on PATH); `details`: what the detail screen
    /// shows of a credential in what was unlocked (nil: the list offers no details);
    /// `detailsWithoutUnlocking`: the same for a preview's credential, when it can be given
    /// without the master password (nil: it cannot, unlock first); `audit`: what
    /// an audit finds there, by credential, to mark the rows (nil: no marks); `previewAudit`: the
    /// same for the preview, asked once its first frame is drawn.
    public init(
        terminal: Terminal, vaultPath: String, passwordHint: String? = nil, requestLabel: String?,
        listTitle: String = "All credentials", offersCodes: Bool = true,
        unlockingMessage: String = "Unlocking…", preview: [RankedCredential]? = nil,
        answerWithoutUnlocking: ((UUID) throws -> Answer?)? = nil,
        codeWithoutUnlocking: ((UUID) throws -> Answer?)? = nil, commandName: String = "pwtui",
        details: ((Unlocked, UUID) throws -> (any CredentialDetails)?)? = nil,
        detailsWithoutUnlocking: ((UUID) throws -> (any CredentialDetails)?)? = nil,
        audit: ((Unlocked) -> [UUID: Set<AuditFinding.Kind>])? = nil,
        previewAudit: (@Sendable () -> [UUID: Set<AuditFinding.Kind>])? = nil,
        unlock: @escaping (borrowing SecureBytes) throws -> Unlocked,
        rank: @escaping (Unlocked) -> [RankedCredential],
        credential: @escaping (Unlocked, UUID) -> Credential?
    ) {
        self.commandName = commandName
        self.details = details
        self.detailsWithoutUnlocking = detailsWithoutUnlocking
        self.audit = audit
        self.previewAudit = previewAudit
        self.preview = preview
        self.answerWithoutUnlocking = answerWithoutUnlocking
        self.codeWithoutUnlocking = codeWithoutUnlocking
        self.terminal = terminal
        self.vaultPath = vaultPath
        self.passwordHint = passwordHint
        self.requestLabel = requestLabel
        self.listTitle = listTitle
        self.offersCodes = offersCodes
        self.unlockingMessage = unlockingMessage
        self.unlock = unlock
        self.rank = rank
        self.credential = credential
    }

    /// `unlocked`: already opened (the master password came from a descriptor), so the flow
    /// starts at the list.
    public func run(unlocked: Unlocked? = nil) throws -> Outcome {
        if let unlocked { return try choose(in: unlocked) }
        if let preview { return try chooseBeforeUnlocking(preview) }
        switch try authenticate() {
        case nil: return .cancelled
        case .outOfTries(let attempts): return .wrongPassword(attempts: attempts)
        case .unlocked(let unlocked): return try choose(in: unlocked)
        }
    }

    private func chooseBeforeUnlocking(_ preview: [RankedCredential]) throws -> Outcome {
        var list = listScreen(preview)
        list.findingsSource = previewAudit
        while true {
            guard var choice = try terminal.run(&list) else { return .cancelled }
            let chosen = list.selected?.credential
            if case .details(let id) = choice, details != nil, let source = try detailsWithoutUnlocking?(id) {
                // Shown without unlocking: Esc back to the list, Enter uses it as the list's would.
                var screen = CredentialDetailScreen(details: source)
                guard try terminal.run(&screen) != nil else { continue }
                choice = .use(id)
            }
            if case .details(let id) = choice {
                // The details show secrets: unlock first, then the vault's own list behind them.
                switch try authenticate(
                    purpose: chosen.map {
                        "To see \($0.displayTitle)" + ($0.username.isEmpty ? "" : " (\($0.username))")
                    })
                {
                case nil: continue
                case .outOfTries(let attempts): return .wrongPassword(attempts: attempts)
                case .unlocked(let unlocked): return try choose(in: unlocked, showingFirst: id)
                }
            }
            let id = choice.id
            let wantsCode = choice == .code(id)
            if let answer = try (wantsCode ? codeWithoutUnlocking : answerWithoutUnlocking)?(id) {
                return .answeredWithoutUnlocking(answer)
            }
            switch try authenticate(
                purpose: chosen.map { "To use \($0.displayTitle)" + ($0.username.isEmpty ? "" : " (\($0.username))") })
            {
            case nil: continue  // Esc on the password screen: back to the list
            case .outOfTries(let attempts): return .wrongPassword(attempts: attempts)
            case .unlocked(let unlocked):
                if let found = credential(unlocked, id) {
                    return wantsCode ? .chosenCode(unlocked, found) : .chosen(unlocked, found)
                }
                // Deleted since the store was written: choose again, from what was unlocked.
                return try choose(in: unlocked)
            }
        }
    }

    /// The list of what was unlocked until a credential is used; `showingFirst`: the details of
    /// that one come first (asked for before unlocking).
    private func choose(in unlocked: Unlocked, showingFirst: UUID? = nil) throws -> Outcome {
        var list = listScreen(rank(unlocked))
        if let audit { list.findings = audit(unlocked) }
        var pending = showingFirst.map(CredentialListScreen.Choice.details)
        while true {
            let choice: CredentialListScreen.Choice
            if let next = pending {
                pending = nil
                choice = next
            } else {
                guard let next = try terminal.run(&list) else { return .cancelled }
                choice = next
            }
            switch choice {
            case .use(let id):
                if let found = credential(unlocked, id) { return .chosen(unlocked, found) }
            case .code(let id):
                if let found = credential(unlocked, id) { return .chosenCode(unlocked, found) }
            case .details(let id):
                list.select(id)
                if let used = try showDetails(of: id, in: unlocked), let found = credential(unlocked, used) {
                    return .chosen(unlocked, found)
                }
            }
        }
    }

    /// The detail screen of `id`: the id to use when Enter was pressed there, nil for Esc (back
    /// to the list) or when there is nothing to show.
    private func showDetails(of id: UUID, in unlocked: Unlocked) throws -> UUID? {
        guard let source = try details?(unlocked, id) else { return nil }
        var screen = CredentialDetailScreen(details: source)
        return try terminal.run(&screen)
    }

    private func listScreen(_ ranked: [RankedCredential]) -> CredentialListScreen {
        CredentialListScreen(
            ranked: ranked, requestLabel: requestLabel, listTitle: listTitle, commandName: commandName,
            offersDetails: details != nil, offersCodes: offersCodes)
    }

    /// The master-password screen until it unlocks, runs out of tries, or is cancelled (nil).
    private func authenticate(purpose: String? = nil) throws -> MasterPasswordScreen<Unlocked>.Result? {
        var screen = try MasterPasswordScreen(
            vaultPath: vaultPath, hint: passwordHint, purpose: purpose,
            unlockingMessage: unlockingMessage, maximumAttempts: Self.maximumAttempts,
            unlock: unlock)
        return try terminal.run(&screen)
    }
}
