import Platform
import ServiceMatching
import VaultAgent
import VaultCrypto
import VaultModel

/// `pwtui get`: one field of the best match (or of one id) on stdout, without a screen; an
/// unlocked agent answers at once, otherwise the vault is unlocked here.
public struct GetCredential {
    public var query: CredentialQuery
    public var field: CredentialField
    /// Exit 75 rather than ask for the master password.
    public var noInteraction: Bool
    /// For a one-time code on a terminal: how many seconds it stays valid, on stderr.
    public var saysTimeLeft = false
    /// A title to ask for when the services match nothing (`get Work`: a one-word argument is a
    /// host first, then an item's title).
    public var titleFallback: String?

    /// What `get WORDS` asks: the services they name; one argument that is no service (`get
    /// "Home Wi-Fi"`) is a title, and a one-word service that matches nothing is tried as one.
    /// A URL (`://`) is always a service, so its parse error stands (it may carry a password,
    /// which the error does not repeat and a title lookup would).
    public static func query(words: [String], id: String?) throws -> (CredentialQuery, titleFallback: String?) {
        if id == nil, words.count == 1, !words[0].contains("://"), (try? ServiceIdentifier(words[0])) == nil {
            return (CredentialQuery(title: words[0]), nil)
        }
        return (
            CredentialQuery(id: id, services: try words.map { try ServiceIdentifier($0) }),
            id == nil && words.count == 1 ? words[0] : nil
        )
    }

    public init(query: CredentialQuery, field: CredentialField, noInteraction: Bool) {
        self.query = query.asking(for: field)
        self.field = field
        self.noInteraction = noInteraction
    }

    public func run(in context: CommandContext) throws {
        if let answer = try withTitleFallback({ query in
            try VaultAccess.ask(.get(vault: context.vaultPath, query: query, field: field), in: context)
        }) {
            try context.streams.write(answer.payload)
            if case .credential(let identity, _, let tied) = answer.body {
                TieNotice.say(tied: tied, chosen: identity, query: query, in: context)
                sayIfNotSaved(identity, context)
                sayTimeLeft(identity, in: context)
            }
            return
        }
        if noInteraction, context.masterPasswordFD == nil {
            throw CommandFailure(
                .interactionRequired, "the vault is locked and --no-interaction forbids asking for the master password")
        }
        // Opened once: the master password is read once, whichever question answers.
        let vault = try context.openVault()
        let (credential, tied) = try withTitleFallback { query in try context.rankedAnswer(query, in: vault) }
        try context.streams.write(try field.render(credential, from: vault))
        TieNotice.say(tied: tied, chosen: IdentityStore.Identity(credential), query: query, in: context)
        sayIfNotSaved(IdentityStore.Identity(credential), context)
        sayTimeLeft(IdentityStore.Identity(credential), in: context)
    }

    /// `get SERVICE --id ID` hands over that credential whatever it is saved for; when that is
    /// not the service (in no tier, show-all's "none"), the person learns it was the id's doing.
    private func sayIfNotSaved(_ identity: IdentityStore.Identity, _ context: CommandContext) {
        guard query.id != nil, !query.services.isEmpty else { return }
        let ranking = context.rankingContext(equivalents: EquivalentDomains())
        let stored = identity.services.compactMap { try? ServiceIdentifier(stored: $0) }
        let matches = query.services.contains { request in
            stored.contains { ServiceMatch.tier(stored: $0, request: request, context: ranking) != nil }
        }
        guard !matches else { return }
        context.streams.say(
            "pwtui: \(identity.titleAndUsername) is not saved for "
                + "\(query.services.map(\.text).joined(separator: " ")); given because --id names it.")
    }

    /// `ask(query)`; when nothing matches and there is a title to try, `ask` of the title.
    /// (Full catches with a guard: a `catch … where` here crashes Swift 6.3.1, PITFALLS.md.)
    private func withTitleFallback<Answer: ~Copyable>(_ ask: (CredentialQuery) throws -> Answer) throws -> Answer {
        do {
            return try ask(query)
        } catch {
            guard let title = titleFallback, Self.isNoMatch(error) else { throw error }
            do {
                return try ask(CredentialQuery(title: title))
            } catch {
                guard Self.isNoMatch(error) else { throw error }
                // A one-word service parsed: no '@' in it, nothing to hide.
                throw VaultError.noMatch("no credential matches \(title) as a service, nor has it as its title")
            }
        }
    }

    /// Whether `error` says nothing matched, here or in the agent.
    private static func isNoMatch(_ error: any Error) -> Bool {
        switch error {
        case VaultError.noMatch: return true
        case let refusal as AgentRefusal:
            return refusal.status == .noMatch && !WithheldCredential.describes(refusal.message)
        default: return false
        }
    }

    private func sayTimeLeft(_ identity: IdentityStore.Identity, in context: CommandContext) {
        guard saysTimeLeft, let period = identity.oneTime?.period, context.streams.answerIsTerminal else { return }
        let seconds = Clock.system.now().millisecondsSince1970 / 1000
        context.streams.say("(valid for \(period - Int(seconds % Int64(period))) more seconds)")
    }
}
