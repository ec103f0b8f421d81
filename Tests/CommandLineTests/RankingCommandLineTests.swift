// Ranking through the real binary: `list SERVICE --format json` reports each credential's tier,
// `get` answers with the first and never with a non-match, equivalents travel in the vault, use
// history stays out of it, and a missing Public Suffix List is said once and degrades safely.

import Foundation
import Testing

@Suite("Ranking on the command line")
struct RankingCommandLineTests {
    /// A vault with one credential per tier for https://api.github.com/login.
    func rankingSandbox() throws -> Sandbox {
        let sandbox = try Sandbox.withVault(
            Login(["https://api.github.com/login"], username: "exact", secret: "p-exact"),
            Login(["api.github.com"], username: "host", secret: "p-host"),
            Login(["github.com"], username: "parent", secret: "p-parent"),
            Login(["*.github.com"], username: "wild", secret: "p-wild"),
            Login(["https://gist.github.com/x"], username: "site", secret: "p-site"),
            Login(["dropbox.com", "box.com"], username: "unrelated", secret: "p-unrelated"))
        return sandbox
    }

    func ranked(_ sandbox: Sandbox, _ arguments: [String], environment: [String: String] = [:]) throws -> [(
        String, String?
    )] {
        let result = try sandbox.pwtui(["list"] + arguments + ["--format", "json"], environment: environment)
        try #require(result.exitCode == 0, "\(result)")
        return try parseJSONArray(result.stdout).map { ($0["username"] as? String ?? "", $0["match"] as? String) }
    }

    @Test("list SERVICE --format json gives every tier, best first; --all adds the rest with match null")
    func listReportsTiers() throws {
        let sandbox = try rankingSandbox()
        let matches = try ranked(sandbox, ["https://api.github.com/login"])
        #expect(matches.map(\.0) == ["exact", "host", "parent", "wild", "site"])
        #expect(matches.map(\.1) == ["exact-url", "same-host", "parent-domain", "wildcard", "same-site"])
        let all = try ranked(sandbox, ["https://api.github.com/login", "--all"])
        #expect(all.last?.0 == "unrelated")
        #expect(all.last?.1 == nil)
        #expect(try sandbox.pwtui(["get", "https://api.github.com/login/two-factor"]).out == "p-exact\n")
    }

    @Test("get never answers with a credential that does not match")
    func getRefusesNonMatches() throws {
        let sandbox = try rankingSandbox()
        for request in ["dropbox.co", "ithub.com", "github.io", "https://github.com:8443/", "http://gist.github.co"] {
            let result = try sandbox.pwtui(["get", request])
            #expect(result.exitCode == 1 && result.stdout.isEmpty, "\(request): \(result)")
        }
        #expect(try sandbox.pwtui(["get", "www.box.com"]).out == "p-unrelated\n")
        // An https credential is never offered to http: only the scheme-less ones answer.
        let http = try ranked(sandbox, ["http://api.github.com/login"])
        #expect(!http.map(\.0).contains("exact") && !http.map(\.0).contains("site"), "\(http)")
        #expect(http.first?.0 == "host")
    }

    @Test("equivalents add, list, rm: stored in the vault, matches marked equivalent")
    func equivalents() throws {
        let sandbox = try Sandbox.withVault(Login(["amazon.com"], username: "shopper", secret: "p-amazon"))
        #expect(try sandbox.pwtui(["get", "amazon.com.be"]).exitCode == 1)
        #expect(try sandbox.pwtui(["equivalents", "add", "amazon.com", "Amazon.COM.be", "amazon.co.uk"]).exitCode == 0)
        #expect(try sandbox.pwtui(["equivalents", "list", "--user"]).out == "amazon.co.uk amazon.com amazon.com.be\n")
        #expect(try ranked(sandbox, ["www.amazon.com.be"]).map(\.1) == ["equivalent"])
        #expect(try sandbox.pwtui(["get", "amazon.co.uk"]).out == "p-amazon\n")
        // In the vault, not beside it: a copy of the vault file alone carries them.
        let copy = sandbox.root + "/copy.pwtui"
        try FileManager.default.copyItem(atPath: sandbox.vault, toPath: copy)
        #expect(
            try sandbox.pwtui(["equivalents", "list", "--user", "--vault", copy]).out
                == "amazon.co.uk amazon.com amazon.com.be\n")
        #expect(try sandbox.pwtui(["equivalents", "rm", "amazon.com.be", "amazon.co.uk"]).exitCode == 0)
        #expect(try sandbox.pwtui(["equivalents", "list", "--user"]).out == "")
        #expect(try sandbox.pwtui(["get", "amazon.co.uk"]).exitCode == 1)
        #expect(try sandbox.pwtui(["equivalents", "rm", "nowhere.example"]).exitCode == 1)
        #expect(try sandbox.pwtui(["equivalents", "add", "only-one.example"]).exitCode == 64)
    }

    @Test("invalid services exit 64 and quote the bad part")
    func invalidServices() throws {
        let sandbox = try Sandbox.withVault()
        for (service, fragment) in [
            ("*.com", "*.com"), ("*.co.uk", "co.uk"), ("*.github.io", "github.io"),
            ("ftp://example.com", "'ftp'"), ("example.com:70000", "'70000'"),
            ("foo.*.example.com", "foo.*.example.com"), ("git hub.com", "'git hub.com'"),
        ] {
            let result = try sandbox.pwtui(["add", service, "--username", "u"], stdin: "secret")
            #expect(result.exitCode == 64, "\(service): \(result)")
            #expect(result.err.contains(fragment), "\(service): \(result)")
        }
        #expect(try sandbox.listJSON().isEmpty)
    }

    @Test("use history lives in XDG_STATE_HOME and breaks ties; get never rewrites the vault")
    func usageHistory() throws {
        let sandbox = try Sandbox.withVault(
            Login(["example.com"], username: "a-first", secret: "p-a"),
            Login(["example.com"], username: "b-second", secret: "p-b"))
        let vaultBefore = try sandbox.vaultDirectoryFiles()
        let ids = try sandbox.listJSON().reduce(into: [String: String]()) {
            $0[$1["username"] as? String ?? ""] = $1["id"] as? String
        }
        // Equal in tier, rank and title: without history the id decides. Whichever comes first,
        // a more recent use of the other one for this service must put it first.
        let first = try sandbox.pwtui(["get", "example.com", "--field", "username"]).out
        let other = first == "a-first\n" ? "b-second" : "a-first"
        let otherID = try #require(ids[other])
        let usage = sandbox.root + "/xdg/state/pwtui/usage"
        let later = Int64(Date().timeIntervalSince1970 * 1000) + 60_000
        try "\(otherID)\texample.com\t1\t\(later)\n".write(toFile: usage, atomically: true, encoding: .utf8)
        #expect(try sandbox.pwtui(["get", "example.com", "--field", "username"]).out == other + "\n")
        let history = try String(contentsOfFile: usage, encoding: .utf8)
        #expect(history.contains("\(otherID)\texample.com\t2\t"), "the use was recorded: \(history)")
        let mode = try FileManager.default.attributesOfItem(atPath: usage)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(try sandbox.vaultDirectoryFiles() == vaultBefore, "reading must not rewrite the vault")
    }

    @Test("a Public Suffix List that cannot be loaded is said once; exact and parent matching go on")
    func missingSuffixList() throws {
        let sandbox = try rankingSandbox()
        let environment = ["PWTUI_PSL_FILE": sandbox.root + "/no-such-list.dat"]
        let result = try sandbox.pwtui(
            ["list", "https://api.github.com/login", "--format", "json"], environment: environment)
        #expect(result.exitCode == 0, "\(result)")
        #expect(result.err.components(separatedBy: "Public Suffix List").count == 2, "said exactly once: \(result.err)")
        let tiers = try parseJSONArray(result.stdout).map { $0["match"] as? String }
        #expect(tiers == ["exact-url", "same-host", "parent-domain", "wildcard"], "no same-site without the list")
        #expect(try sandbox.pwtui(["get", "www.github.com"], environment: environment).out == "p-parent\n")
    }
}
