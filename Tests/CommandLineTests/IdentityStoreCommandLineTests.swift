// The credential identity store seen from outside: kept by every command that saves, rebuilt
// when missing or stale, never holding a secret, absent when switched off, and read by `suggest`
// without a password.

import Foundation
import Testing
#if canImport(Glibc)
    import Glibc
#endif

@Suite("Identity store and suggest")
struct IdentityStoreCommandLineTests {
    /// The vault's store (one file per vault); a path that does not exist when there is none.
    func storePath(_ sandbox: Sandbox) -> String {
        sandbox.identityStoreFiles().first ?? sandbox.root + "/xdg/state/pwtui/identities/none"
    }

    func suggest(_ sandbox: Sandbox, _ service: String) throws -> RunResult {
        try sandbox.pwtui(["suggest", service, "--format", "json"], password: .none)
    }

    @Test("suggest ranks from the store without a password; the store holds no secret and no notes")
    func suggestWithoutUnlocking() throws {
        let sandbox = try Sandbox.withVault()
        try sandbox.add(["github.com"], username: "alice", secret: "top-secret-1", extra: ["--notes", "private-note"])
        try sandbox.add(["api.github.com"], username: "bot", secret: "top-secret-2")
        let result = try suggest(sandbox, "https://api.github.com/x")
        #expect(result.exitCode == 0, "\(result)")
        let entries = try parseJSONArray(result.stdout)
        #expect(entries.map { $0["username"] as? String } == ["bot", "alice"])
        #expect(entries.map { $0["match"] as? String } == ["same-host", "parent-domain"])
        let store = String(decoding: readBytes(storePath(sandbox)) ?? [], as: UTF8.self)
        #expect(!store.contains("top-secret") && !store.contains("private-note"), "\(store)")
        let mode = try FileManager.default.attributesOfItem(atPath: storePath(sandbox))[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(try suggest(sandbox, "gitlab.com").out == "[]\n")
    }

    @Test("a deleted store is rebuilt by the next unlock; a vault changed behind its back makes it stale until then")
    func rebuiltWhenMissingOrStale() throws {
        let sandbox = try Sandbox.withVault(Login(["github.com"], username: "alice", secret: "s1"))
        let copy = sandbox.root + "/older.pwtui"
        try FileManager.default.copyItem(atPath: sandbox.vault, toPath: copy)
        try FileManager.default.removeItem(atPath: storePath(sandbox))
        #expect(try suggest(sandbox, "github.com").exitCode == 75)
        #expect(try sandbox.pwtui(["list"]).exitCode == 0)
        #expect(try suggest(sandbox, "github.com").exitCode == 0)

        // Another copy of the vault (an older generation, as a sync tool would put it back).
        try FileManager.default.removeItem(atPath: sandbox.vault)
        try FileManager.default.copyItem(atPath: copy, toPath: sandbox.vault)
        try sandbox.add(["gitlab.com"], username: "bob", secret: "s2")
        #expect(try suggest(sandbox, "gitlab.com").exitCode == 0, "the add rebuilt it (it mirrored a newer file)")
        let before = String(decoding: readBytes(storePath(sandbox)) ?? [], as: UTF8.self)
        try FileManager.default.removeItem(atPath: sandbox.vault)
        try FileManager.default.copyItem(atPath: copy, toPath: sandbox.vault)
        #expect(try suggest(sandbox, "gitlab.com").exitCode == 75, "stale: the vault file is not the one it mirrors")
        #expect(try sandbox.pwtui(["get", "github.com"]).exitCode == 0)
        let after = String(decoding: readBytes(storePath(sandbox)) ?? [], as: UTF8.self)
        #expect(after != before && !after.contains("bob"), "rebuilt from the vault as it is now")
    }

    @Test("identity_store = false: no such file, and an existing one is removed")
    func switchedOff() throws {
        let sandbox = try Sandbox.withVault(Login(["github.com"], username: "alice", secret: "s1"))
        #expect(FileManager.default.fileExists(atPath: storePath(sandbox)))
        try sandbox.writeConfig("identity_store = false\n")
        try sandbox.add(["gitlab.com"], username: "bob", secret: "s2")
        #expect(!FileManager.default.fileExists(atPath: storePath(sandbox)))
        #expect(try suggest(sandbox, "github.com").exitCode == 75)
        #expect(!FileManager.default.fileExists(atPath: storePath(sandbox)))
    }

    @Test("kill -9 during saves never leaves a store that suggests what the vault does not hold")
    func consistentAfterKills() throws {
        let sandbox = try Sandbox.withVault()
        let pwtui = try Binaries.require(Binaries.pwtui)
        var random = SystemRandomNumberGenerator()
        for round in 0 ..< 25 {
            let child = try sandbox.start(
                pwtui, ["add", "n\(round).example", "--username", "u\(round)", "--master-password-fd", "3"],
                stdin: .text("secret-\(round)"), descriptors: [3: .text(sandbox.password)])
            usleep(UInt32.random(in: 40_000 ... 160_000, using: &random))
            child.signal(SIGKILL)
            _ = child.wait(timeout: .seconds(10))
            let suggested = try suggest(sandbox, "n\(round).example")
            #expect(suggested.exitCode == 0 || suggested.exitCode == 75, "current, or missing/stale: \(suggested)")
            guard suggested.exitCode == 0,
                try parseJSONArray(suggested.stdout).contains(where: { $0["username"] as? String == "u\(round)" })
            else { continue }
            let listed = try sandbox.listJSON().compactMap { $0["username"] as? String }
            #expect(listed.contains("u\(round)"), "the store suggests u\(round) only if the vault holds it")
        }
    }
}
