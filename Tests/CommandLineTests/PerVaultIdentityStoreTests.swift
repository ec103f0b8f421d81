// One identity store per vault (issue 9, fix 3): listing or changing another vault with --vault
// must not overwrite the usual vault's store, or `suggest` for the usual vault fails (75) until
// the next unlock.

import Foundation
import Testing

extension Sandbox {
    /// The identity stores in `$XDG_STATE_HOME/pwtui/identities/`, one file per vault.
    func identityStoreFiles() -> [String] {
        let directory = root + "/xdg/state/pwtui/identities"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.filter { !$0.hasPrefix(".") && !$0.hasSuffix(".key") }.sorted().map { directory + "/" + $0 }
    }
}

@Suite("One identity store per vault")
struct PerVaultIdentityStoreTests {
    @Test("two vaults: using the other one leaves suggest for the usual one working, each suggests its own")
    func twoVaults() throws {
        let sandbox = try Sandbox.withVault(Login(["github.com"], username: "alice", secret: "s1"))
        let other = sandbox.root + "/other.pwtui"
        try sandbox.initVault(at: other)
        try sandbox.add(["gitlab.com"], username: "bob", secret: "s2", extra: ["--vault", other])
        #expect(try sandbox.pwtui(["list", "--vault", other]).exitCode == 0)

        let usual = try sandbox.pwtui(["suggest", "github.com", "--format", "json"], password: .none)
        #expect(usual.exitCode == 0, "\(usual)")
        #expect(try parseJSONArray(usual.stdout).map { $0["username"] as? String } == ["alice"])
        let second = try sandbox.pwtui(
            ["suggest", "gitlab.com", "--format", "json", "--vault", other], password: .none)
        #expect(second.exitCode == 0, "\(second)")
        #expect(try parseJSONArray(second.stdout).map { $0["username"] as? String } == ["bob"])
        #expect(
            try sandbox.pwtui(["suggest", "gitlab.com", "--format", "json"], password: .none).out == "[]\n",
            "the usual vault's store has none of the other's identities")
        #expect(sandbox.identityStoreFiles().count == 2, "\(sandbox.identityStoreFiles())")
    }

    @Test("the same vault named another way (relative, through a symlink) finds the same store")
    func canonicalPath() throws {
        let sandbox = try Sandbox.withVault(Login(["github.com"], username: "alice", secret: "s1"))
        let link = sandbox.root + "/link.pwtui"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: sandbox.vault)
        let throughLink = try sandbox.pwtui(["suggest", "github.com", "--vault", link], password: .none)
        #expect(throughLink.exitCode == 0 && throughLink.out.contains("alice"), "\(throughLink)")
        let relative = try sandbox.run(
            "/bin/sh",
            [
                "-c", "cd \"$1\" && exec \"$2\" suggest github.com --vault ./vault/../vault/vault.pwtui",
                "sh", sandbox.root, try Binaries.require(Binaries.pwtui),
            ])
        #expect(relative.exitCode == 0 && relative.out.contains("alice"), "\(relative)")
        #expect(sandbox.identityStoreFiles().count == 1)
    }

    @Test("a store file left where the stores' directory goes (the old single store) is replaced, not fatal")
    func oldSingleStore() throws {
        let sandbox = try Sandbox.withVault()
        let directory = sandbox.root + "/xdg/state/pwtui/identities"
        try FileManager.default.removeItem(atPath: directory)
        try "PWIS old single store".write(toFile: directory, atomically: true, encoding: .utf8)
        let add = try sandbox.pwtui(["add", "github.com", "--username", "alice"], stdin: "s1")
        #expect(add.exitCode == 0 && !add.err.contains("could not be written"), "\(add)")
        #expect(try sandbox.pwtui(["suggest", "github.com"], password: .none).exitCode == 0)
    }
}
