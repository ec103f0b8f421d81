// `pwtui list` (issue 9, fixes 7 and 12) through the binary: the exit codes a shell sees when it
// answers from the identity store or cannot, and the table's alignment in CJK and emoji measured
// by another program (Python's unicodedata), not by pwtui's own width table. Where list and
// equivalents list get their answer (store, agent, unlock) is tested in process
// (CommandsTests/ListWithoutUnlockingInProcessTests).

import Foundation
import Testing

@Suite("list without unlocking")
struct ListWithoutUnlockingTests {
    func turnIdentityStoreOff(_ sandbox: Sandbox) throws {
        try sandbox.writeConfig("identity_store = false\n")
    }

    @Test(
        "end to end: list exits 0 from the identity store with no terminal and no descriptor; with the store off and no agent, 75"
    )
    func exitCodes() throws {
        let sandbox = try Sandbox.withVault(Login(["github.com"], username: "alice", secret: "s1"))
        let table = try sandbox.pwtui(["list"], password: .none)
        #expect(table.exitCode == 0 && table.out.contains("alice"), "\(table)")
        try turnIdentityStoreOff(sandbox)
        #expect(try sandbox.pwtui(["list"], password: .none).exitCode == 75, "no store, no agent, no terminal")
        #expect(try sandbox.pwtui(["list"]).exitCode == 0, "a descriptor unlocks here")
    }

    /// Terminal columns of `text` as Python's unicodedata sees them (wide and fullwidth: 2,
    /// combining marks: 0): a measure independent of the one pwtui uses.
    func columnsBefore(_ needles: [String], in lines: [String], sandbox: Sandbox) throws -> [Int] {
        let script = """
            import sys, unicodedata
            def width(s):
                return sum(0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in 'WF' else 1 for c in s)
            for line, needle in zip(sys.argv[1::2], sys.argv[2::2]):
                print(width(line[:line.index(needle)]))
            """
        var arguments = ["python3", "-c", script]
        for (line, needle) in zip(lines, needles) { arguments += [line, needle] }
        let result = try sandbox.run("/usr/bin/env", arguments)
        try #require(result.exitCode == 0, "\(result)")
        return result.out.split(separator: "\n").compactMap { Int($0) }
    }

    @Test("the table lines up CJK and emoji titles and usernames by terminal columns")
    func wideCharactersAlign() throws {
        let sandbox = try Sandbox.withVault()
        let rows = [
            ("日本語のサイト", "ユーザー", "jp.example"), ("Emoji 🔐🎉", "bob😀", "emoji.example"),
            ("plain", "carol", "plain.example"), ("한국어 계정", "사용자", "kr.example"), ("Ｆｕｌｌ", "ｗｉｄｅ", "full.example"),
        ]
        for (title, username, service) in rows {
            try sandbox.add([service], username: username, secret: "s", extra: ["--title", title])
        }
        let table = try sandbox.pwtui(["list"])
        try #require(table.exitCode == 0, "\(table)")
        var lines: [String] = []
        var usernames: [String] = []
        var services: [String] = []
        for (_, username, service) in rows {
            let line = try #require(table.out.split(separator: "\n").first { $0.hasSuffix(service) }, "\(table.out)")
            lines.append(String(line))
            usernames.append(username)
            services.append(service)
        }
        let header = try #require(table.out.split(separator: "\n").first.map(String.init))
        let usernameColumns = try columnsBefore(["USERNAME"] + usernames, in: [header] + lines, sandbox: sandbox)
        let serviceColumns = try columnsBefore(["SERVICES"] + services, in: [header] + lines, sandbox: sandbox)
        #expect(
            usernameColumns.count == rows.count + 1 && Set(usernameColumns).count == 1,
            "\(usernameColumns)\n\(table.out)")
        #expect(
            serviceColumns.count == rows.count + 1 && Set(serviceColumns).count == 1, "\(serviceColumns)\n\(table.out)")
    }
}
