// Real hosts through the real binary and an unlocked agent: the hosts that crashed pwtui (a
// dangling pointer from libpsl, SIGILL in release builds, and it took the agent down with it),
// then every rule of the Public Suffix List that Debian installs, as requests to the agent, which
// must survive them all; and fill safety across public suffixes as a user and git see it.

import Foundation
import Testing

@Suite("Real-world hosts")
struct RealWorldHostTests {
    static let crashers = [
        "login.microsoftonline.com", "www.wellsfargoadvisors.com", "www.auth.exampleapp.com.au",
        "xn--bcher-kva.xn--fiqs8s.xn--55qx5d.cn", "sellercentral.amazon.com",
    ]

    /// Hosts made from every rule of the list: the rule (`*` as a label), one label under it, a
    /// 63-byte label under it, and a name of several long labels.
    static func corpusHosts() throws -> [String] {
        let text = try String(contentsOfFile: "/usr/share/publicsuffix/public_suffix_list.dat", encoding: .utf8)
        var hosts: [String] = []
        for line in text.split(separator: "\n") where !line.hasPrefix("//") {
            guard let rule = line.split(separator: " ").first, !rule.isEmpty else { continue }
            let base = rule.replacingOccurrences(of: "!", with: "").replacingOccurrences(of: "*", with: "wild")
            hosts += [
                base, "a." + base, String(repeating: "l", count: 63) + "." + base,
                String(repeating: "m", count: 50) + "." + String(repeating: "n", count: 50) + ".bücher." + base,
            ]
        }
        return hosts
    }

    @Test("the hosts that crashed pwtui answer 'no match' (exit 1) on an empty vault")
    func reportedCrashers() throws {
        let sandbox = try Sandbox.withVault()
        for host in Self.crashers {
            let result = try sandbox.pwtui(["get", host])
            #expect(result.exitCode == 1, "\(result)")
        }
    }

    @Test("an unlocked agent answers every Public Suffix List host and is still alive and unlocked afterwards")
    func agentSurvivesTheCorpus() throws {
        let sandbox = try Sandbox.withVault(
            Login(["www.amazon.com"], username: "alice", secret: "amazon-secret"),
            Login(["github.io"], username: "pages", secret: "pages-secret"))
        try sandbox.startUnlockedAgent()
        defer { sandbox.stopAgent() }

        let hosts = try Self.crashers + Self.corpusHosts()
        #expect(hosts.count > 35_000)
        var answered = 0
        for start in stride(from: 0, to: hosts.count, by: 800) {
            let batch = Array(hosts[start ..< min(start + 800, hosts.count)])
            let result = try sandbox.pwtui(["get", "--no-interaction", "--field", "username"] + batch, password: .none)
            // 0: something matched (amazon's hosts), 1: nothing did; never a crash, never 74/75.
            #expect(result.exitCode == 0 || result.exitCode == 1, "batch at \(start): \(result)")
            if result.exitCode == 0 || result.exitCode == 1 { answered += batch.count }
        }
        #expect(answered == hosts.count)
        let status = try sandbox.pwtui(["agent", "status"], password: .none)
        #expect(status.exitCode == 0 && status.out.hasPrefix("unlocked"), "the agent survived: \(status)")
        let seller = try sandbox.pwtui(
            ["get", "sellercentral.amazon.com", "--no-interaction", "--field", "username"], password: .none)
        #expect(seller.exitCode == 0 && seller.out == "alice\n", "same site through the agent: \(seller)")
    }

    @Test(
        "a credential for a public suffix is never offered to the sites under it: get, suggest, and git with no terminal"
    )
    func publicSuffixCredentialsStayPut() throws {
        let sandbox = try Sandbox.withVault()
        let add = try sandbox.pwtui(["add", "github.io", "--username", "pages"], stdin: "pages-secret")
        #expect(add.exitCode == 0)
        #expect(add.err.contains("github.io is a public suffix"), "adding says what it means: \(add)")
        try sandbox.add(["s3.amazonaws.com"], username: "aws", secret: "bucket-secret")
        try sandbox.add(["*.example.com"], username: "wild", secret: "wild-secret")

        #expect(
            try sandbox.pwtui(["get", "github.io", "--field", "username"]).out == "pages\n",
            "the host itself still matches")
        for host in ["evil.github.io", "attacker-bucket.s3.amazonaws.com"] {
            let get = try sandbox.pwtui(["get", host])
            #expect(get.exitCode == 1 && get.stdout.isEmpty, "\(get)")
            let suggest = try sandbox.pwtui(["suggest", host], password: .none)
            #expect(!suggest.out.contains("pages") && !suggest.out.contains("aws"), "\(suggest)")
            let git = try sandbox.pwtui(["git-credential", "get"], stdin: "protocol=https\nhost=\(host)\n\n")
            #expect(git.exitCode == 0 && !git.out.contains("password="), "git gets nothing for \(host): \(git)")
        }
        // An ordinary wildcard still works.
        #expect(try sandbox.pwtui(["get", "a.example.com", "--field", "username"]).out == "wild\n")
    }

    @Test("a URL with user:password@ is refused with a message that does not repeat the password; nothing is saved")
    func userinfoIsRefused() throws {
        let sandbox = try Sandbox.withVault()
        let before = try sandbox.vaultDirectoryFiles()
        for service in ["https://user:hunter2secret@github.com", "https://hunter2secret@github.com/login"] {
            let add = try sandbox.pwtui(["add", service, "--username", "alice"], stdin: "pw")
            #expect(add.exitCode == 64, "\(add)")
            #expect(!add.err.contains("hunter2secret") && add.err.contains("--username"), "\(add)")
            let get = try sandbox.pwtui(["get", service])
            #expect(get.exitCode == 64 && !get.err.contains("hunter2secret"), "\(get)")
        }
        #expect(try sandbox.vaultDirectoryFiles() == before)
    }
}
