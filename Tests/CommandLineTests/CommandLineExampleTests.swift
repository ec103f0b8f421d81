// The command-line examples of README's short tour and their exit codes
// (docs/design.md#exit-codes), run against the built binary exactly as a user types them, and the
// ranking edge cases (docs/design.md#ranking) that a user notices first.

import Foundation
import Testing

@Suite("Command-line examples")
struct CommandLineExampleTests {
    /// A vault with `printf 's3cret\n' | pwtui add github.com --username alice` in it.
    private func githubVault() throws -> (Sandbox, String) {
        let sandbox = try Sandbox.withVault()
        let added = try sandbox.pwtui(["add", "github.com", "--username", "alice"], stdin: "s3cret")
        try #require(added.exitCode == 0, "\(added)")
        let id = added.out.trimmingCharacters(in: .newlines)
        #expect(UUID(uuidString: id) != nil, "add prints the new id: \(added)")
        #expect(!added.out.contains("s3cret") && !added.err.contains("s3cret"), "add echoed the secret: \(added)")
        return (sandbox, id)
    }

    @Test("get github.com prints exactly the secret and a newline, exit 0")
    func getPrintsTheSecret() throws {
        let (sandbox, _) = try githubVault()
        let result = try sandbox.pwtui(["get", "github.com"])
        #expect(result.exitCode == 0, "\(result)")
        #expect(result.stdout == Array("s3cret\n".utf8), "\(result)")
        #expect(!result.err.contains("s3cret"), "\(result)")
    }

    @Test("A wrong master password exits 77, prints nothing on stdout and says so on stderr")
    func wrongMasterPassword() throws {
        let (sandbox, _) = try githubVault()
        let result = try sandbox.pwtui(["get", "github.com"], password: .text("not the password"))
        #expect(result.exitCode == 77, "\(result)")
        #expect(result.stdout.isEmpty, "\(result)")
        #expect(result.err.lowercased().contains("wrong master password"), "\(result)")
    }

    @Test("get for a service nothing matches exits 1 with empty stdout")
    func noMatchExitsOne() throws {
        let (sandbox, _) = try githubVault()
        let result = try sandbox.pwtui(["get", "gitlab.com"])
        #expect(result.exitCode == 1, "\(result)")
        #expect(result.stdout.isEmpty, "\(result)")
        #expect(!result.err.isEmpty, "a reason on stderr: \(result)")
    }

    @Test("list --format json is valid JSON with id, title, username and services, and no secret")
    func listJSON() throws {
        let (sandbox, id) = try githubVault()
        let result = try sandbox.pwtui(["list", "--format", "json"])
        #expect(result.exitCode == 0, "\(result)")
        #expect(!result.out.contains("s3cret"), "list must never print a secret: \(result)")
        let entries = try parseJSONArray(result.stdout)
        try #require(entries.count == 1, "\(result)")
        let entry = entries[0]
        #expect(entry["id"] as? String == id)
        #expect(entry["title"] as? String == "github.com")
        #expect(entry["username"] as? String == "alice")
        #expect(entry["services"] as? [String] == ["github.com"])
        #expect(entry["password"] == nil && entry["secret"] == nil)
    }

    @Test("A credential for github.com answers for sub.github.com (parent domain)")
    func parentDomainMatches() throws {
        let (sandbox, _) = try githubVault()
        let result = try sandbox.pwtui(["get", "sub.github.com"])
        #expect(result.exitCode == 0, "\(result)")
        #expect(result.out == "s3cret\n", "\(result)")
    }

    @Test("box.com does not match dropbox.com: matching respects label boundaries")
    func labelBoundary() throws {
        let sandbox = try Sandbox.withVault(Login(["box.com"], username: "bob", secret: "box-secret"))

        let dropbox = try sandbox.pwtui(["get", "dropbox.com"])
        #expect(dropbox.exitCode == 1, "box.com must not be offered for dropbox.com: \(dropbox)")
        #expect(dropbox.stdout.isEmpty, "\(dropbox)")
        let listed = try sandbox.pwtui(["list", "dropbox.com", "--format", "json"])
        #expect(listed.exitCode == 0 || listed.exitCode == 1, "\(listed)")
        if listed.exitCode == 0 {
            #expect(try parseJSONArray(listed.stdout).isEmpty, "\(listed)")
        }

        // The same credential still answers for its own domain and subdomains of it.
        #expect(try sandbox.pwtui(["get", "box.com"]).out == "box-secret\n")
        #expect(try sandbox.pwtui(["get", "www.box.com"]).out == "box-secret\n")

        // With both stored, each domain gets its own.
        try sandbox.add(["dropbox.com"], username: "dora", secret: "dropbox-secret")
        #expect(try sandbox.pwtui(["get", "dropbox.com"]).out == "dropbox-secret\n")
        #expect(try sandbox.pwtui(["get", "box.com"]).out == "box-secret\n")
    }
}
