import Foundation
import ServiceMatching
import TUITestDoubles
import Testing
import TUI
import VaultModel

/// The picker's columns are sized from what they show: the match kind is never cut, short titles
/// leave no wide gaps on a wide terminal, a long title is capped, and wide characters count as
/// the two columns they take.
@Suite struct CredentialColumnsTests {
    struct Entry {
        let title: String
        let username: String
        let service: String
    }

    static let request = "https://github.com/login"

    static let everyday = [
        Entry(title: "GitHub", username: "alice", service: "https://github.com/login"),
        Entry(title: "GitHub API", username: "bot", service: "api.github.com"),
        Entry(
            title: "Gist", username: "carol",
            service: "https://gist.github.com/carol/a-rather-long-path/that/goes/on/and/on"),
        Entry(title: "GitHub (work)", username: "dave@example.com", service: "github.com"),
    ]

    func ranked(_ entries: [Entry]) throws -> [RankedCredential] {
        let credentials = try entries.map {
            try IdentityStore.Identity(
                id: UUID(), title: $0.title, username: $0.username, services: [$0.service], rank: 0
            )
            .secretlessCredential()
        }
        return CredentialRanking.rank(
            credentials, for: [try ServiceIdentifier(Self.request)],
            context: RankingContext(suffixes: LibPSL() ?? NoPublicSuffixList()))
    }

    /// The first frame of the list for `entries` at `columns`, as the run loop draws it.
    func frame(_ entries: [Entry], columns: Int) throws -> (Canvas, [RankedCredential]) {
        let ranked = try ranked(entries)
        var screen = CredentialListScreen(ranked: ranked, requestLabel: Self.request)
        let terminal = GridTerminal(size: TerminalSize(rows: 20, columns: columns))
        terminal.press(.escape)
        _ = try terminal.run(&screen)
        return (try #require(terminal.frames.first), ranked)
    }

    /// Where `text` starts on `row`, in terminal columns (a wide character's second cell skipped).
    func column(of text: String, in canvas: Canvas, row: Int) -> Int? {
        let cells = canvas.cells[row]
        let wanted = Array(text)
        for start in cells.indices {
            var column = start
            var matched = 0
            while matched < wanted.count, column < cells.count {
                if let character = cells[column].character {
                    guard character == wanted[matched] else { break }
                    matched += 1
                }
                column += 1
            }
            if matched == wanted.count { return start }
        }
        return nil
    }

    /// The row where `entry` is drawn (found by its username, unique in these lists).
    func row(of entry: Entry, in canvas: Canvas) throws -> Int {
        try #require(
            canvas.cells.indices.first { column(of: entry.username, in: canvas, row: $0) != nil },
            "\(entry.username) not on screen:\n\(canvas.text)")
    }

    @Test("the match kind is never cut, at 80, 100 and 250 columns", arguments: [80, 100, 250])
    func matchKindWhole(columns: Int) throws {
        let (canvas, ranked) = try frame(Self.everyday, columns: columns)
        let lines = canvas.text.components(separatedBy: "\n")
        for entry in ranked {
            let kind = try #require(entry.match)
            let row = try row(of: Self.everyday.first { $0.username == entry.credential.username }!, in: canvas)
            #expect(lines[row].hasSuffix("(\(kind.rawValue))"), "at \(columns) columns:\n\(canvas.text)")
        }
        // The service gives way first: the long path is cut, the short ones are whole.
        #expect(lines.contains { $0.contains("https://github.com/login (exact-url)") }, "\(canvas.text)")
        #expect(lines.contains { $0.contains("api.github.com (same-site)") }, "\(canvas.text)")
        // Titles and usernames get what they need at these widths.
        for entry in Self.everyday {
            let row = try row(of: entry, in: canvas)
            #expect(lines[row].contains(entry.title) && lines[row].contains(entry.username), "\(canvas.text)")
        }
    }

    @Test("no wide gaps at 250 columns: each column is as wide as its widest cell and a gap")
    func noWideGaps() throws {
        let (canvas, _) = try frame(Self.everyday, columns: 250)
        let widestTitle = 2 + Self.everyday.map { TextWidth.columns(of: $0.title) }.max()!
        let widestUser = Self.everyday.map { TextWidth.columns(of: $0.username) }.max()!
        for entry in Self.everyday {
            let row = try row(of: entry, in: canvas)
            #expect(column(of: entry.username, in: canvas, row: row) == widestTitle + 2, "\(canvas.text)")
            #expect(
                column(of: entry.service.prefix(20).description, in: canvas, row: row) == widestTitle + 2 + widestUser
                    + 2,
                "\(canvas.text)")
        }
    }

    @Test("a long title is capped; the other columns stay whole", arguments: [80, 100, 250])
    func longTitleCapped(columns: Int) throws {
        let long = Entry(
            title: String(repeating: "Very long title ", count: 20), username: "erin", service: "github.com")
        let (canvas, _) = try frame(Self.everyday + [long], columns: columns)
        let row = try row(of: long, in: canvas)
        let line = canvas.text.components(separatedBy: "\n")[row]
        #expect(line.contains("…"), "cut")
        let start = try #require(column(of: "erin", in: canvas, row: row))
        #expect(start <= max(columns * 2 / 5, 12) + 2, "the title takes at most its cap:\n\(canvas.text)")
        #expect(line.hasSuffix("github.com (same-host)"), "\(canvas.text)")
        for entry in Self.everyday {
            #expect(
                column(of: entry.username, in: canvas, row: try self.row(of: entry, in: canvas)) == start, "aligned")
        }
    }

    @Test("wide characters take two columns: the columns stay aligned under 日本語")
    func wideCharacters() throws {
        let japanese = Entry(title: "日本語のタイトル", username: "日本語ユーザー", service: "github.com")
        for columns in [80, 100, 250] {
            let (canvas, _) = try frame(Self.everyday + [japanese], columns: columns)
            let japaneseRow = try row(of: japanese, in: canvas)
            let userColumn = column(of: japanese.username, in: canvas, row: japaneseRow)
            #expect(
                userColumn == column(of: "alice", in: canvas, row: try row(of: Self.everyday[0], in: canvas)),
                "\(canvas.text)")
            #expect(
                column(of: "github.com (same-host)", in: canvas, row: japaneseRow)
                    == column(
                        of: "https://github.com/login", in: canvas, row: try row(of: Self.everyday[0], in: canvas)),
                "\(canvas.text)")
        }
    }

    static let shortNames: [MatchKind: String] = [
        .exactURL: "url", .pathPrefix: "path", .sameHost: "host", .parentDomain: "parent",
        .wildcard: "wild", .sameSite: "site", .equivalent: "equiv",
    ]

    @Test(
        "at the screen's minimum width (and at 40) the kind is still whole, in its short form, and every row keeps some of its service (issue 26, 11)"
    )
    func narrowest() throws {
        for columns in [CredentialListScreen.minimumSize.columns, 40] {
            let (canvas, ranked) = try frame(Self.everyday, columns: columns)
            let lines = canvas.text.components(separatedBy: "\n")
            for entry in ranked {
                let kind = try #require(entry.match)
                let short = Self.shortNames[kind] ?? "?"
                let service = try #require(entry.matchedService?.text)
                let row = lines.first {
                    $0.hasSuffix("(\(short))") && $0.contains(String(entry.credential.displayTitle.prefix(3)))
                }
                #expect(row != nil, "\(columns): \(canvas.text)")
                #expect(
                    row?.contains(String(service.prefix(3))) == true,
                    "\(columns): some of \(service) is shown:\n\(canvas.text)")
            }
        }
        // With room, the full names.
        let (wide, _) = try frame(Self.everyday, columns: 100)
        #expect(wide.text.contains("(same-host)"), "\(wide.text)")
    }

    @Test("a list longer than the window says how many rows are below (issue 26, 11)")
    func moreBelow() throws {
        let many = (0 ..< 30).map { Entry(title: "Site \($0)", username: "u\($0)", service: "site\($0).example") }
        let screen = CredentialListScreen(ranked: try ranked(many), requestLabel: nil)
        var canvas = Canvas(size: TerminalSize(rows: 12, columns: 40))
        screen.render(into: &canvas)
        let filterLine = canvas.text.components(separatedBy: "\n")[1]
        #expect(
            filterLine.hasSuffix("↓ 23 more"),
            "12 rows: 8 for the list (the header and 7 of 30 entries): \(canvas.text)")
        var tall = Canvas(size: TerminalSize(rows: 40, columns: 40))
        screen.render(into: &tall)
        #expect(!tall.text.contains("more"), "all in view: \(tall.text)")
    }
}
