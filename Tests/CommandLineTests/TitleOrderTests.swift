// One order of titles everywhere: `pwtui list` and the picker's list of all credentials show the
// same credentials in the same natural order (1, 2, 10, 100; case and accents folded).

import Foundation
import Testing

@Suite("Title order in list and the picker")
struct TitleOrderTests {
    @Test("pwtui list and pwtui pick order the same titles identically, numbers by value")
    func listAndPickerAgree() throws {
        let sandbox = try Sandbox.withVault()
        // Usernames name the rows on the picker's screen, where a title like "Server 1" is also
        // part of "Server 10".
        let titles = [
            "Server 10", "server 2", "Server 100", "Émile", "Server 1", "zeta 9", "alpha", "Zeta 10", "eagle",
        ]
        for (index, title) in titles.enumerated() {
            try sandbox.add(
                ["host\(index).example"], username: "user-\(index)-x", secret: "s\(index)", extra: ["--title", title])
        }
        let expected = [
            "alpha", "eagle", "Émile", "Server 1", "server 2", "Server 10", "Server 100", "zeta 9", "Zeta 10",
        ]

        let listed = try sandbox.listJSON().compactMap { $0["title"] as? String }
        #expect(listed == expected, "pwtui list --format json")
        let table = try sandbox.pwtui(["list"])
        let tableUsers = table.out.split(separator: "\n").dropFirst().compactMap { line in
            line.split(separator: " ").first { $0.hasPrefix("user-") }.map(String.init)
        }
        let expectedUsers = expected.map { "user-\(titles.firstIndex(of: $0) ?? -1)-x" }
        #expect(tableUsers == expectedUsers, "pwtui list's table\n\(table.out)")

        let tmux = try TmuxSession.shellReady(sandbox: sandbox)
        let pwtui = try Binaries.require(Binaries.pwtui)
        try tmux.enter("'\(pwtui)' pick > /dev/null")
        let screen = try tmux.requirePane {
            $0.contains("All credentials (\(titles.count))") && $0.contains("user-0-x")
        }
        let lines = screen.split(separator: "\n")
        let pickerUsers = expectedUsers.map { user in lines.firstIndex { $0.contains(user) } ?? -1 }
        #expect(pickerUsers == pickerUsers.sorted() && !pickerUsers.contains(-1), "the picker's order\n\(screen)")
        try tmux.press("Escape")
    }
}
