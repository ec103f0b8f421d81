// Issue 16's commands through the binary: what goes to stdout and to stderr, and the exit codes —
// `get` among equally good matches, `rm` and `edit` by service or title, `add` of an account
// already there, and `add --generate` handing the password over.

import Foundation
import Testing

@Suite("everyday commands: ties, names, duplicates, generated passwords")
struct EverydayCommandTests {
    @Test(
        "get with two equally good matches: one password on stdout, the choice and the count on stderr, locally and through the agent; not from git's helper"
    )
    func tieIsSaid() throws {
        let sandbox = try Sandbox.withVault(
            Login(["github.com"], username: "alice", secret: "alice-pw"),
            Login(["github.com"], username: "bob", secret: "bob-pw"),
            Login(["gitlab.com"], username: "carol", secret: "carol-pw"))
        let local = try sandbox.pwtui(["get", "github.com"])
        #expect(local.exitCode == 0 && ["alice-pw\n", "bob-pw\n"].contains(local.out), "\(local)")
        #expect(
            local.err.contains("2 credentials match github.com equally well") && local.err.contains("--id"), "\(local)")
        let chosen = local.out == "alice-pw\n" ? "alice" : "bob"
        #expect(local.err.contains("(\(chosen), id "), "the one on stdout is the one named: \(local)")
        #expect(!local.err.contains("alice-pw") && !local.err.contains("bob-pw"), "no secret on stderr: \(local)")

        let alone = try sandbox.pwtui(["get", "gitlab.com"])
        #expect(alone.exitCode == 0 && alone.out == "carol-pw\n" && alone.err.isEmpty, "\(alone)")
        let narrower = try sandbox.pwtui(["get", "--field", "username", "github.com"])
        #expect(narrower.err.contains("equally well"), "still a tie, whatever the field: \(narrower)")

        let git = try sandbox.pwtui(["git-credential", "get"], stdin: "protocol=https\nhost=github.com\n\n")
        #expect(git.exitCode == 0 && !git.err.contains("equally"), "\(git)")

        try sandbox.startUnlockedAgent()
        defer { sandbox.stopAgent() }
        let agent = try sandbox.pwtui(["get", "github.com"], password: .none)
        #expect(agent.exitCode == 0 && agent.out == local.out, "the use history settled it the same way: \(agent)")
        #expect(
            agent.err.contains("2 credentials match github.com equally well") && agent.err.contains("(\(chosen), id "),
            "\(agent)")
        let agentGit = try sandbox.pwtui(
            ["git-credential", "get"], password: .none, stdin: "protocol=https\nhost=github.com\n\n")
        #expect(agentGit.exitCode == 0 && !agentGit.err.contains("equally"), "\(agentGit)")
    }

    @Test(
        "the tie notice's advice works: get SERVICE --id ID gives that one, counts as its use, and says when the id is saved for another service (issue 26, 8)"
    )
    func tieAdviceWorks() throws {
        let sandbox = try Sandbox.withVault(
            Login(["github.com"], username: "alice", secret: "alice-pw"),
            Login(["github.com"], username: "bob", secret: "bob-pw"),
            Login(["gitlab.com"], username: "carol", secret: "carol-pw"))
        let ids = Dictionary(
            uniqueKeysWithValues: try sandbox.listJSON().map {
                ($0["username"] as? String ?? "", $0["id"] as? String ?? "")
            })
        let first = try sandbox.pwtui(["get", "github.com"])
        let other = first.out == "alice-pw\n" ? "bob" : "alice"
        let id = String(try #require(ids[other]).prefix(8))
        #expect(first.err.contains("--id"), "\(first)")

        let chosen = try sandbox.pwtui(["get", "github.com", "--id", id])
        #expect(
            chosen.exitCode == 0 && chosen.out == "\(other)-pw\n" && chosen.err.isEmpty,
            "as the notice advised: \(chosen)")
        let after = try sandbox.pwtui(["get", "github.com"])
        #expect(after.out == "\(other)-pw\n", "the choice counts as a use of github.com: \(after)")

        let elsewhere = try sandbox.pwtui(["get", "github.com", "--id", String(try #require(ids["carol"]).prefix(8))])
        #expect(elsewhere.exitCode == 0 && elsewhere.out == "carol-pw\n", "\(elsewhere)")
        #expect(elsewhere.err.contains("is not saved for github.com"), "\(elsewhere)")

        try sandbox.startUnlockedAgent()
        defer { sandbox.stopAgent() }
        let agent = try sandbox.pwtui(["get", "github.com", "--id", id], password: .none)
        #expect(
            agent.exitCode == 0 && agent.out == "\(other)-pw\n" && agent.err.isEmpty, "through the agent too: \(agent)")
        #expect(try sandbox.pwtui(["get", "github.com", "--id"], password: .none).exitCode == 64)
    }

    @Test("add \"Home Wi-Fi\" (no service) says how to add an item without a site, and nothing is added (issue 23)")
    func addWithATitleWhereAServiceGoes() throws {
        let sandbox = try Sandbox.withVault()
        for extra in [[], ["--username", "me"]] {
            let add = try sandbox.pwtui(["add", "Home Wi-Fi"] + extra, stdin: "wifi-secret")
            #expect(add.exitCode == 64 && add.err.contains("pwtui add --title 'Home Wi-Fi'"), "\(add)")
        }
        #expect(try sandbox.listJSON().isEmpty)
        let missing = try sandbox.pwtui(["add", "github.com"], stdin: "pw")
        #expect(
            missing.exitCode == 64 && missing.err.contains("--username"),
            "a service still needs its account: \(missing)")
    }

    @Test(
        "rm and edit by title or service: one named acts on it; several named are listed on stderr with exit 64, nothing changed"
    )
    func byServiceOrTitle() throws {
        let sandbox = try Sandbox.withVault(
            Login(["site.example"], username: "alice", secret: "a"),
            Login(["shop.example"], username: "bob", secret: "b"),
            Login(["shop.example"], username: "carol", secret: "c"))
        var ids: [String: String] = [:]
        for entry in try sandbox.listJSON() {
            if let username = entry["username"] as? String, let id = entry["id"] as? String {
                ids[username] = String(id.prefix(8))
            }
        }
        let several = try sandbox.pwtui(["rm", "shop.example", "--yes"])
        #expect(several.exitCode == 64 && several.stdout.isEmpty, "\(several)")
        #expect(
            several.err.contains("bob") && several.err.contains("carol") && !several.err.contains("alice"), "\(several)"
        )
        #expect(
            ids.count == 3 && several.err.contains(ids["bob"] ?? "?") && several.err.contains(ids["carol"] ?? "?")
                && !several.err.contains(ids["alice"] ?? "?"), "each listed with its id prefix: \(several)")
        #expect(try sandbox.listJSON().count == 3)
        let editSeveral = try sandbox.pwtui(["edit", "shop.example", "--notes", "x"])
        #expect(editSeveral.exitCode == 64, "\(editSeveral)")

        let edit = try sandbox.pwtui(["edit", "site.example", "--title", "My Site"])
        #expect(edit.exitCode == 0, "\(edit)")
        let remove = try sandbox.pwtui(["rm", "my site", "--yes"])
        #expect(remove.exitCode == 0 && remove.err.contains("Deleted My Site"), "\(remove)")
        #expect(try sandbox.listJSON().compactMap { $0["username"] as? String }.sorted() == ["bob", "carol"])

        let none = try sandbox.pwtui(["rm", "site", "--yes"])
        #expect(none.exitCode == 1 && none.err.contains("'site'"), "\(none)")
    }

    @Test(
        "add of a service and username already there: 64 without a terminal, naming both ways out; --force adds a second"
    )
    func duplicateAdd() throws {
        let sandbox = try Sandbox.withVault(Login(["github.com"], username: "alice", secret: "first"))
        let again = try sandbox.pwtui(["add", "https://github.com", "--username", "alice"], stdin: "second")
        #expect(again.exitCode == 64 && again.stdout.isEmpty, "\(again)")
        #expect(
            again.err.contains("--force") && again.err.contains("edit ") && again.err.contains("--password"), "\(again)"
        )
        #expect(try sandbox.listJSON().count == 1)
        #expect(try sandbox.pwtui(["get", "github.com"]).out == "first\n")

        let forced = try sandbox.pwtui(["add", "github.com", "--username", "alice", "--force"], stdin: "second")
        #expect(forced.exitCode == 0 && forced.err.isEmpty, "silently: \(forced)")
        #expect(try sandbox.listJSON().count == 2)
        let other = try sandbox.pwtui(["add", "github.com", "--username", "bob"], stdin: "third")
        #expect(other.exitCode == 0, "another account: \(other)")
    }

    @Test("add --generate --print: the id, then the password (the one get returns); without --print only the id")
    func generatedPassword() throws {
        let sandbox = try Sandbox.withVault()
        let printed = try sandbox.pwtui(["add", "new.example", "--username", "u", "--generate", "--print"])
        let lines = printed.out.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(printed.exitCode == 0 && lines.count == 3 && lines[2].isEmpty, "\(printed)")
        let id = try #require(lines.first)
        #expect(UUID(uuidString: id) != nil, "\(printed)")
        let password = lines.count > 1 ? lines[1] : ""
        #expect(password.count >= 16 && !printed.err.contains(password), "\(printed)")
        let get = try sandbox.pwtui(["get", "--id", id])
        #expect(get.out == password + "\n", "\(get)")

        let quiet = try sandbox.pwtui(["add", "other.example", "--username", "u", "--generate"])
        #expect(
            quiet.exitCode == 0 && UUID(uuidString: quiet.out.trimmingCharacters(in: .newlines)) != nil,
            "only the id: \(quiet)")
        #expect(quiet.err.contains("--print"), "where the password is: \(quiet)")

        let typed = try sandbox.pwtui(["add", "third.example", "--username", "u", "--print"], stdin: "typed")
        #expect(typed.exitCode == 64, "--print without --generate: \(typed)")
    }
}
