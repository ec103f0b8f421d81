import ArgumentParser
import TUI
import VaultModel
import ServiceMatching

struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List credentials (identities only: never a secret), ranked for SERVICE(s) if given.",
        discussion: """
            Answers from the identity store when it mirrors the vault file (no password, no unlock), \
            else from an unlocked agent, else unlocks the vault. JSON has "created" and "modified" \
            only when the vault was unlocked: they are not kept outside it.
            """)

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case table, json
    }

    @OptionGroup var global: GlobalOptions

    @Argument(help: "Only credentials matching these services, best first.")
    var services: [String] = []

    @Option(help: "table or json.")
    var format: Format = .table

    @Flag(help: "With services: also list the credentials that do not match (match: null).")
    var all = false

    func run() throws {
        let requests = try services.map { try ServiceIdentifier($0) }
        let listed = try ListedIdentities.load(global)
        let rows: [(Credential, MatchKind?)]
        if requests.isEmpty {
            rows = listed.credentials
                .sorted { $0.displayTitle.localizedStandardCompare($1.displayTitle) == .orderedAscending }
                .map { ($0, nil) }
        } else {
            let context = listed.rankingContext(global)
            let ranked = all ? CredentialRanking.rank(listed.credentials, for: requests, context: context)
                : CredentialRanking.matches(listed.credentials, for: requests, context: context)
            rows = ranked.map { ($0.credential, $0.match) }
            if rows.isEmpty, format == .table {
                throw VaultError.noMatch("no credential matches \(services.joined(separator: " "))")
            }
        }
        switch format {
        case .json: try StandardOutput.write(Self.json(rows, ranked: !requests.isEmpty, times: listed.times))
        case .table: try StandardOutput.write(Self.table(rows))
        }
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
            if times {
                fields.append("\"created\":\(JSONText.quote(credential.created.description))")
                fields.append("\"modified\":\(JSONText.quote(credential.modified.description))")
            }
            if ranked { fields.append("\"match\":\(match.map { JSONText.quote($0.rawValue) } ?? "null")") }
            return "{" + fields.joined(separator: ",") + "}"
        }
        return "[" + objects.joined(separator: ",\n ") + "]\n"
    }

    static func table(_ rows: [(Credential, MatchKind?)]) -> String {
        let header = ["ID", "TITLE", "USERNAME", "SERVICES"]
        let cells = rows.map { credential, _ in
            [String(credential.id.uuidString.lowercased().prefix(8)), credential.displayTitle, credential.username,
             credential.services.map(\.text).joined(separator: " ")].map(PrintableText.forTerminal)
        }
        // Padded by terminal columns, not characters: 日本語 takes six, an emoji two.
        var widths = header.map(TextWidth.columns(of:))
        for row in cells { for (column, cell) in row.enumerated() { widths[column] = max(widths[column], TextWidth.columns(of: cell)) } }
        func line(_ row: [String]) -> String {
            row.enumerated().map { column, cell in
                column == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[column] - TextWidth.columns(of: cell))
            }.joined(separator: "  ") + "\n"
        }
        return line(header) + cells.map(line).joined()
    }
}
