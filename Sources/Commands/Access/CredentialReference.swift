import FoundationEssentials
import ServiceMatching
import TUI
import UnicodeText
import VaultAgent
import VaultModel

/// How `rm` and `edit` name the credential they act on: its id or a unique prefix of it, else a
/// service or a title.
///
/// An id prefix comes first — it is what scripts pass, and it names one credential or none. Only
/// when no id starts with the text (or it is too short to be a prefix) is it read as a service,
/// matched by host (`CredentialQuery.sameHost`: `rm example.com` must not reach the credential of
/// a parent domain or of an equivalent one, as `get` may), and as a title, compared without
/// case. One credential named: that one. Several: the picker on a terminal, listing only those;
/// without a terminal they are listed on stderr with their ids, and the command ends with 64 —
/// deleting or changing one of them by guess is not an answer.
public struct CredentialReference {
    public var text: String

    public init(_ text: String) {
        self.text = text
    }

    /// The one credential `text` names in `access`. `context`: for the terminal and its theme.
    public func resolve(in access: VaultAccess, context: CommandContext) throws -> IdentityStore.Identity {
        do {
            return try access.identity(of: text)
        } catch  where namesNoID(error) {}
        let named = candidates(in: try access.identities().identities)
        switch named.count {
        case 0:
            // Text with an '@' may be a pasted `user:password@host`: not repeated.
            guard !text.contains("@") else {
                throw VaultError.noMatch("no credential has that text as its id, a service or its title")
            }
            throw VaultError.noMatch(
                "no credential has an id starting with '\(text)', a service '\(text)' or the title '\(text)'")
        case 1:
            return named[0]
        default:
            return try choose(among: named, context: context)
        }
    }

    /// The length `Vault.credential(id:)` asks of a prefix.
    static let shortestIDPrefix = 4

    /// Whether looking `text` up as an id failed because no id starts with it (or it is too short
    /// to be a prefix), locally or in the agent: then it may be a service or a title. An ambiguous
    /// prefix stays an error: it was meant as an id.
    private func namesNoID(_ error: any Error) -> Bool {
        let tooShort = text.count < Self.shortestIDPrefix
        switch error {
        case VaultError.noMatch: return true
        case VaultError.invalidRequest: return tooShort
        case let refusal as AgentRefusal: return refusal.status == .noMatch || (refusal.status == .usage && tooShort)
        default: return false
        }
    }

    /// The credentials `text` names as a service (by host) or a title, service matches first in
    /// ranked order, then titles.
    func candidates(in identities: [IdentityStore.Identity]) -> [IdentityStore.Identity] {
        var named = (try? ServiceIdentifier(text)).map { Self.sameHost($0, in: identities) } ?? []
        let wanted = text.lowercased()
        for identity in identities
        where identity.title.lowercased() == wanted && !named.contains(where: { $0.id == identity.id }) {
            named.append(identity)
        }
        return named
    }

    /// The credentials with a service for `service`'s very host (`CredentialQuery.sameHost`), in
    /// ranked order: never a parent domain's, a same-site or an equivalent one.
    static func sameHost(_ service: ServiceIdentifier, in identities: [IdentityStore.Identity]) -> [IdentityStore
        .Identity]
    {
        let credentials = identities.compactMap { try? $0.secretlessCredential() }
        let query = CredentialQuery(services: [service], tiers: CredentialQuery.sameHost)
        let matches = CredentialRanking.matches(
            credentials, for: [service], context: RankingContext(suffixes: NoPublicSuffixList()))
        let byID = Dictionary(identities.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        return matches.filter(query.accepts).compactMap { byID[$0.credential.id] }
    }

    /// The picker over `named` alone when there is a terminal; otherwise they are listed, 64.
    private func choose(among named: [IdentityStore.Identity], context: CommandContext) throws -> IdentityStore.Identity
    {
        guard context.mayUseTerminal, let terminal = try? context.openTerminal(theme: try context.settings().theme)
        else {
            throw CommandFailure(
                .usage,
                "'\(text)' names \(named.count) credentials; give one's id (or a prefix of it):\n"
                    + Self.lines(named).joined(separator: "\n"))
        }
        defer { terminal.close() }
        return try pick(among: named, on: terminal, commandName: Invocation.current(context.environment).command)
    }

    /// The picker's list of `named` only (nothing to unlock: they are known), on `terminal`;
    /// cancelling it is 130.
    func pick(among named: [IdentityStore.Identity], on terminal: Terminal, commandName: String) throws
        -> IdentityStore.Identity
    {
        let credentials = named.compactMap { try? $0.secretlessCredential() }
        let flow = PickerFlow<[Credential], Never>(
            // No request label: the screen would list only ranked matches under it, and these are
            // named by title as much as by service; all of them are the list.
            // The list says what was asked for; a choice here names a credential (rm, edit, show),
            // it hands nothing over, so ^T (a one-time code) is not offered.
            terminal: terminal, vaultPath: "", requestLabel: nil, listTitle: "Credentials named '\(text)'",
            offersCodes: false,
            commandName: commandName,
            unlock: { _ in credentials },
            rank: { CredentialRanking.rank($0, for: [], context: RankingContext(suffixes: NoPublicSuffixList())) },
            credential: { list, id in list.first { $0.id == id } })
        guard case .chosen(_, let credential) = try flow.run(unlocked: credentials),
            let chosen = named.first(where: { $0.id == credential.id })
        else {
            throw CommandFailure(.cancelled, "nothing chosen")
        }
        return chosen
    }

    /// "  0b7c7e2a  GitHub  octocat  github.com": the candidates listed without a terminal, in
    /// columns (titles and usernames padded to the widest, in terminal columns).
    static func lines(_ named: [IdentityStore.Identity]) -> [String] {
        // Escaped before they are measured: the message is escaped anyway, and a title's
        // `\u{202E}` must be padded as the ten columns it is shown as.
        let titles = named.map { PrintableText.escaped($0.displayTitle) },
            users = named.map { PrintableText.escaped($0.username) }
        let titleWidth = titles.map(TextWidth.columns(of:)).max() ?? 0
        let userWidth = users.map(TextWidth.columns(of:)).max() ?? 0
        func padded(_ text: String, _ width: Int) -> String {
            text + String(repeating: " ", count: max(0, width - TextWidth.columns(of: text)))
        }
        return named.indices.map { index in
            "  \(named[index].id.uuidString.lowercased().prefix(8))  \(padded(titles[index], titleWidth))  "
                + "\(padded(users[index], userWidth))  " + named[index].services.joined(separator: " ")
        }
    }
}
