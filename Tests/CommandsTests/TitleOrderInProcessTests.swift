// One order of titles everywhere, in process: `list` (table and JSON) and the picker's list of
// all credentials (`Picker.pick` on a `GridTerminal`) show the same credentials in the same
// natural order (1, 2, 10, 100; case and accents folded).

import Foundation
@testable import Commands
import TUITestDoubles
import Testing
import TUI
import VaultModel

@Suite("title order in list and the picker, in process")
struct TitleOrderInProcessTests {
    // Usernames name the rows on the picker's screen, where a title like "Server 1" is also part
    // of "Server 10".
    static let titles = [
        "Server 10", "server 2", "Server 100", "Émile", "Server 1", "zeta 9", "alpha", "Zeta 10", "eagle",
    ]
    static let expected = [
        "alpha", "eagle", "Émile", "Server 1", "server 2", "Server 10", "Server 100", "zeta 9", "Zeta 10",
    ]
    static var expectedUsers: [String] { expected.map { "user-\(titles.firstIndex(of: $0) ?? -1)-x" } }

    static func fixture() throws -> CommandFixture {
        try CommandFixture(
            titles.enumerated().map { index, title in ("host\(index).example", "user-\(index)-x", "s\(index)", title) })
    }

    @Test("list --format json and list's table order the titles naturally, numbers by value")
    func list() throws {
        let fixture = try Self.fixture()
        let json = try fixture.run(typing: CommandFixture.unlock) {
            try ListCredentials(services: [], format: .json, all: false).run(in: $0)
        }
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [[String: Any]])
        #expect(rows.compactMap { $0["title"] as? String } == Self.expected)
        let table = try fixture.run(typing: CommandFixture.unlock) {
            try ListCredentials(services: [], format: .table, all: false).run(in: $0)
        }
        let users = table.output.split(separator: "\n").dropFirst().compactMap { line in
            line.split(separator: " ").first { $0.hasPrefix("user-") }.map(String.init)
        }
        #expect(users == Self.expectedUsers, "\(table.output)")
    }

    @Test("the picker's list of all credentials has the same order as list")
    func picker() throws {
        let fixture = try Self.fixture()
        let screen = GridTerminal(script: [.key(.escape)])
        let (failure, _) = try fixture.failure(screen: screen) { try Picker.pick([], output: .password, in: $0) }
        #expect(failure?.code == .cancelled, "\(String(describing: failure))")
        let frame = try #require(
            screen.frames.last { $0.text.contains("All credentials (\(Self.titles.count))") }?.text,
            "\(screen.frames.last?.text ?? "no frame")")
        let lines = frame.split(separator: "\n")
        let rows = Self.expectedUsers.map { user in lines.firstIndex { $0.contains(user) } ?? -1 }
        #expect(!rows.contains(-1) && rows == rows.sorted(), "the picker's order\n\(frame)")
    }
}
