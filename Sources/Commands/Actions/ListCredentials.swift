import FoundationEssentials
import ServiceMatching
import TUI
import UnicodeText
import VaultModel

/// `pwtui list` and `pwtui suggest`: identities only, never a secret, as a table or JSON.
public struct ListCredentials {
    public enum Format: String, CaseIterable, Sendable {
        case table, json
    }

    public var services: [String]
    public var format: Format
    /// With services: also the credentials that do not match (match: null).
    public var all: Bool

    public init(services: [String], format: Format, all: Bool) {
        self.services = services
        self.format = format
        self.all = all
    }

    /// `list`: from the cheapest source that is up to date (`ListedIdentities`).
    public func run(in context: CommandContext) throws {
        let requests = try services.map { try ServiceIdentifier($0) }
        let listed = try ListedIdentities.load(context)
        let rows: [(Credential, MatchKind?)]
        if requests.isEmpty {
            // The picker's order of the same credentials (natural, by title); items without a site
            // after them, a section of their own.
            let sorted = CredentialRanking.byTitle(listed.credentials)
            rows = (sorted.filter { !$0.services.isEmpty } + sorted.filter(\.services.isEmpty)).map { ($0, nil) }
        } else {
            let ranking = listed.rankingContext(context)
            let ranked =
                all
                ? CredentialRanking.rank(listed.credentials, for: requests, context: ranking)
                : CredentialRanking.matches(listed.credentials, for: requests, context: ranking)
            rows = ranked.map { ($0.credential, $0.match) }
            if rows.isEmpty, format == .table {
                throw VaultError.noMatch(
                    "no credential matches \(services.joined(separator: " "))"
                        + PortMiss.suffix(for: requests, among: listed.credentials))
            }
        }
        switch format {
        case .json: try context.streams.write(Self.json(rows, ranked: !requests.isEmpty, times: listed.times))
        case .table: try context.streams.write(Self.table(rows))
        }
    }

    /// `suggest` (AutoFill's QuickType suggestions): the matches from the identity store only,
    /// without unlocking and without ever asking for a password.
    public func suggest(in context: CommandContext) throws {
        let requests = try services.map { try ServiceIdentifier($0) }
        // Only identities with a host that could match are built and parsed; the filter needs the
        // store's equivalent domains, read first.
        var ranking = context.rankingContext(equivalents: EquivalentDomains())
        let store = try context.currentIdentityStore { equivalents in
            ranking.equivalents = equivalents
            return HostFilter(requests: requests, context: ranking)
        }
        let credentials: [Credential]
        do {
            credentials = try store.identities.map { try $0.secretlessCredential() }
        } catch {
            // The store is authenticated, so this is a store an older pwtui wrote: a cache to
            // rebuild, never a usage error (the user did not type these services).
            throw CommandFailure(
                .interactionRequired,
                "the identity store holds a service this pwtui cannot read (\(error)); "
                    + "any command that unlocks the vault (pwtui list) rebuilds it")
        }
        let ranked = CredentialRanking.matches(credentials, for: requests, context: ranking)
        guard !ranked.isEmpty || format == .json else {
            // The store was filtered by host, so what it holds for these hosts is all there is.
            throw VaultError.noMatch(
                "no credential matches \(services.joined(separator: " "))"
                    + PortMiss.suffix(for: requests, among: credentials))
        }
        let rows = ranked.map { ($0.credential, $0.match) }
        try context.streams.write(format == .json ? Self.json(rows, ranked: true, times: false) : Self.table(rows))
    }

    /// `times`: false for identities from the identity store or the agent, which have none.
    static func json(_ rows: [(Credential, MatchKind?)], ranked: Bool, times: Bool = true) -> String {
        let objects = rows.map { credential, match in
            var fields = [
                "\"id\":\(JSONText.quote(credential.id.uuidString.lowercased()))",
                "\"title\":\(JSONText.quote(credential.displayTitle))",
                "\"username\":\(JSONText.quote(credential.username))",
                "\"services\":[\(credential.services.map { JSONText.quote($0.text) }.joined(separator: ","))]",
                "\"rank\":\(credential.rank)",
            ]
            if credential.kind != .login { fields.append("\"kind\":\(JSONText.quote(credential.kind.token))") }
            if times {
                fields.append("\"created\":\(JSONText.quote(credential.created.description))")
                fields.append("\"modified\":\(JSONText.quote(credential.modified.description))")
            }
            if ranked { fields.append("\"match\":\(match.map { JSONText.quote($0.rawValue) } ?? "null")") }
            return "{" + fields.joined(separator: ",") + "}"
        }
        return "[" + objects.joined(separator: ",\n ") + "]\n"
    }

    /// The services, after the kind's mark as the picker shows it (`[card]`, `[note]`: issue 38),
    /// or "(no site)" for a login without one.
    static func servicesCell(_ credential: Credential) -> String {
        let services = credential.services.map(\.text).joined(separator: " ")
        guard let marker = credential.kind.marker else { return services.isEmpty ? "(no site)" : services }
        return services.isEmpty ? marker : marker + " " + services
    }

    static func table(_ rows: [(Credential, MatchKind?)]) -> String {
        let header = ["ID", "TITLE", "USERNAME", "SERVICES"]
        let cells = rows.map { credential, _ in
            [
                String(credential.id.uuidString.lowercased().prefix(8)), credential.displayTitle, credential.username,
                Self.servicesCell(credential),
            ].map(PrintableText.escaped)
        }
        // Padded by terminal columns, not characters: 日本語 takes six, an emoji two.
        var widths = header.map(TextWidth.columns(of:))
        for row in cells {
            for (column, cell) in row.enumerated() { widths[column] = max(widths[column], TextWidth.columns(of: cell)) }
        }
        func line(_ row: [String]) -> String {
            row.enumerated().map { column, cell in
                column == row.count - 1
                    ? cell : cell + String(repeating: " ", count: widths[column] - TextWidth.columns(of: cell))
            }.joined(separator: "  ") + "\n"
        }
        return line(header) + cells.map(line).joined()
    }
}
