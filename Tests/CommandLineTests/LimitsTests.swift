// Size limits are declared once (Sources/VaultModel/Model/Limits.swift): over a limit, every way in
// refuses with the field and the limit named and saves nothing; at the limits, every way out
// carries the credential, the unlocked agent included.

import Foundation
import Testing

@Suite("Size limits")
struct LimitsTests {
    static let titleLimit = 4 * 1024

    @Test("inject: a template on stdin is bounded as one given with -i: over 16 MiB refused (64), saying why")
    func injectStdinBounded() throws {
        let sandbox = try Sandbox.withVault(Login(["api.example"], username: "svc", secret: "inject-secret"))
        let big = String(repeating: "x", count: 16 << 20) + "{{ pwtui://api.example }}\n"
        let file = sandbox.root + "/big-template"
        try big.write(toFile: file, atomically: true, encoding: .utf8)
        let piped = try sandbox.run(
            try Binaries.require(Binaries.pwtui), ["inject", "--master-password-fd", "3"], stdin: .readWrite(file),
            descriptors: [3: .text(sandbox.password)])
        #expect(piped.exitCode == 64 && piped.out.isEmpty, "\(piped)")
        #expect(piped.err.contains("larger than 16 MiB"), "\(piped)")
        let named = try sandbox.pwtui(["inject", "-i", file])
        #expect(named.exitCode != 0 && named.out.isEmpty, "-i refuses it too: \(named)")
        let small = try sandbox.pwtui(["inject"], stdin: "k={{ pwtui://api.example }}\n")
        #expect(small.exitCode == 0 && small.out.hasPrefix("k=inject-secret\n"), "\(small)")
    }

    @Test("over a limit: refused with the field named, locally and through the agent, and nothing is saved")
    func overTheLimitIsRefused() throws {
        let sandbox = try Sandbox.withVault()
        let before = try sandbox.vaultDirectoryFiles()
        let huge = String(repeating: "t", count: 131_000)
        let local = try sandbox.pwtui(["add", "github.com", "--username", "alice", "--title", huge], stdin: "pw")
        #expect(
            local.exitCode == 64 && local.err.contains("title") && local.err.contains("\(Self.titleLimit)"), "\(local)")
        let longSecret = String(repeating: "p", count: 70 * 1024)
        let secret = try sandbox.pwtui(["add", "github.com", "--username", "alice"], stdin: longSecret)
        #expect(secret.exitCode == 64, "\(secret)")
        #expect(try sandbox.vaultDirectoryFiles() == before)

        try sandbox.startUnlockedAgent()
        defer { sandbox.stopAgent() }
        let through = try sandbox.pwtui(
            ["add", "github.com", "--username", "alice", "--title", huge], password: .none, stdin: "pw")
        #expect(through.exitCode == 64 && through.err.contains("title"), "\(through)")
        #expect(try sandbox.vaultDirectoryFiles() == before)
    }

    @Test("at every limit at once (with characters JSON must escape), the agent carries the credential")
    func atTheLimitsTheAgentCarriesIt() throws {
        let sandbox = try Sandbox.withVault()
        // Quotes and backslashes escape to two bytes each in the agent's JSON, and 40 long
        // services alone pass the old 64 KiB header: it could not carry this one identity.
        let title = String(repeating: "\"", count: Self.titleLimit)
        let username = String(repeating: "\\", count: 4 * 1024)
        let services = (0 ..< 40).map { "https://example.com/\($0)/" + String(repeating: "a", count: 4000) }
        let id = try sandbox.add(services, username: username, secret: "limit-secret", extra: ["--title", title])
        try sandbox.startUnlockedAgent()
        defer { sandbox.stopAgent() }
        let get = try sandbox.pwtui(["get", "--id", id, "--no-interaction"], password: .none)
        #expect(get.exitCode == 0 && get.out == "limit-secret\n", "\(get)")
        let json = try sandbox.pwtui(["get", "example.com", "--field", "json", "--no-interaction"], password: .none)
        #expect(json.exitCode == 0 && json.out.contains("limit-secret"), "\(json.exitCode as Any) \(json.err)")
        let edit = try sandbox.pwtui(["edit", id, "--rank", "3"], password: .none)
        #expect(edit.exitCode == 0, "\(edit)")
    }

    @Test(
        "every identity of a vault through the agent at once, far past the old 64 KiB header (list with the store off)")
    func allIdentitiesThroughTheAgent() throws {
        let sandbox = try Sandbox.withVault()
        // 30 credentials with 4 KiB titles: some 120 KiB of identities in one answer.
        for index in 0 ..< 30 {
            try sandbox.add(
                ["site\(index).example"], username: "user\(index)", secret: "s\(index)",
                extra: ["--title", "T\(index)-" + String(repeating: "x", count: Self.titleLimit - 8)])
        }
        try ListWithoutUnlockingTests().turnIdentityStoreOff(sandbox)
        try sandbox.startUnlockedAgent()
        defer { sandbox.stopAgent() }
        let list = try sandbox.pwtui(["list", "--format", "json"], password: .none)
        #expect(list.exitCode == 0, "answered by the agent, no password: \(list.err)")
        #expect((try? parseJSONArray(list.stdout).count) == 30)
    }

    @Test("control characters in a title or username are refused (they would reach the terminal of whoever lists them)")
    func controlCharactersRefused() throws {
        let sandbox = try Sandbox.withVault()
        let before = try sandbox.vaultDirectoryFiles()
        let escape = try sandbox.pwtui(["add", "example.com", "--username", "evil\u{1B}]2;pwned\u{07}"], stdin: "pw")
        #expect(escape.exitCode == 64 && escape.err.contains("U+001B") && !escape.err.contains("\u{1B}"), "\(escape)")
        let title = try sandbox.pwtui(["add", "example.com", "--username", "u", "--title", "T\u{9B}2J"], stdin: "pw")
        #expect(title.exitCode == 64 && title.err.contains("U+009B"), "\(title)")
        #expect(try sandbox.vaultDirectoryFiles() == before)
        // git may hand over a username decoded from a crafted URL's %1b: refused too, nothing stored.
        let git = try sandbox.pwtui(
            ["git-credential", "store"],
            stdin: "protocol=https\nhost=example.com\nusername=a\u{1B}[2Jb\npassword=pw\n\n")
        #expect(!git.err.contains("\u{1B}"), "\(git)")
        #expect(try sandbox.vaultDirectoryFiles() == before)
    }
}
