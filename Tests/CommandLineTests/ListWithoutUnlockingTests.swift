// `pwtui list` and `pwtui equivalents list` (issue 9, fixes 7 and 12): they answer from the
// identity store when it mirrors the vault file, else from an unlocked agent, and unlock only
// when neither can; the table lines up titles and usernames in CJK and emoji by terminal columns.

import Foundation
import Testing

@Suite("list without unlocking")
struct ListWithoutUnlockingTests {
    func turnIdentityStoreOff(_ sandbox: Sandbox) throws {
        try sandbox.writeConfig("identity_store = false\n")
    }

    @Test(
        "with a current identity store, list and equivalents list need no password: none given, or a wrong one never read"
    )
    func fromTheIdentityStore() throws {
        let sandbox = try Sandbox.withVault(
            Login(["github.com"], username: "alice", secret: "s1"),
            Login(["www.amazon.com"], username: "bob", secret: "s2"))
        #expect(try sandbox.pwtui(["equivalents", "add", "amazon.com", "amazon.co.uk"]).exitCode == 0)

        let table = try sandbox.pwtui(["list"], password: .none)
        #expect(table.exitCode == 0, "no terminal and no descriptor, and yet: \(table)")
        #expect(table.out.contains("alice") && table.out.contains("bob"), "\(table)")
        let wrong = try sandbox.pwtui(["list", "--format", "json"], password: .text("not the master password"))
        #expect(wrong.exitCode == 0, "the password is not needed, so not checked: \(wrong)")
        let ranked = try sandbox.pwtui(["list", "amazon.co.uk", "--format", "json"], password: .none)
        let entries = try parseJSONArray(ranked.stdout)
        #expect(
            entries.map { $0["match"] as? String } == ["equivalent"], "ranked with the store's equivalents: \(ranked)")
        #expect(entries.first?["created"] == nil, "no times outside the vault: \(ranked)")
        let groups = try sandbox.pwtui(["equivalents", "list", "--user"], password: .none)
        #expect(groups.exitCode == 0 && groups.out == "amazon.co.uk amazon.com\n", "\(groups)")

        // A vault changed behind the store's back: the store is stale, so list unlocks.
        try FileManager.default.copyItem(atPath: sandbox.vault, toPath: sandbox.root + "/copy.pwtui")
        try sandbox.add(
            ["gitlab.com"], username: "carol", secret: "s3", extra: ["--vault", sandbox.root + "/copy.pwtui"])
        try FileManager.default.removeItem(atPath: sandbox.vault)
        try FileManager.default.copyItem(atPath: sandbox.root + "/copy.pwtui", toPath: sandbox.vault)
        #expect(try sandbox.pwtui(["list"], password: .none).exitCode == 75, "stale store, no agent, no terminal")
        let unlocked = try sandbox.pwtui(["list", "--format", "json"])
        #expect(unlocked.exitCode == 0 && unlocked.out.contains("carol"), "\(unlocked)")
        #expect(try parseJSONArray(unlocked.stdout).first?["created"] is String, "times when unlocked: \(unlocked)")
        #expect(try sandbox.pwtui(["list"], password: .none).out.contains("carol"), "the unlock rebuilt the store")
    }

    @Test("with the store off, an unlocked agent answers list and equivalents list; a locked one does not")
    func fromTheAgent() throws {
        let sandbox = try Sandbox.withVault(Login(["github.com"], username: "alice", secret: "s1"))
        #expect(try sandbox.pwtui(["equivalents", "add", "amazon.com", "amazon.de"]).exitCode == 0)
        try turnIdentityStoreOff(sandbox)
        #expect(try sandbox.pwtui(["list"], password: .none).exitCode == 75, "no store, no agent, no terminal")
        #expect(try sandbox.pwtui(["equivalents", "list"], password: .none).exitCode == 75)
        defer { _ = try? sandbox.pwtui(["agent", "stop"], password: .none) }
        #expect(try sandbox.pwtui(["unlock"]).exitCode == 0)
        let table = try sandbox.pwtui(["list"], password: .none)
        #expect(table.exitCode == 0 && table.out.contains("alice"), "\(table)")
        let groups = try sandbox.pwtui(["equivalents", "list", "--user"], password: .none)
        #expect(groups.exitCode == 0 && groups.out == "amazon.com amazon.de\n", "\(groups)")
        #expect(try sandbox.pwtui(["agent", "lock"], password: .none).exitCode == 0)
        #expect(try sandbox.pwtui(["list"], password: .none).exitCode == 75, "a locked agent cannot answer")
        #expect(try sandbox.pwtui(["list"]).exitCode == 0, "and a descriptor still unlocks here")
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
