import Foundation
import Testing

/// `pwtui merge`, `sync`, `doctor` and the rollback warning through the binary: what each
/// refuses, and that nothing is lost when they do.
@Suite struct SyncCommandTests {
    /// A vault, and a copy of it that changed apart (another machine's, or a sync service's
    /// conflict copy): the vault gained `kept.example`, the copy `other.example`.
    static func vaultAndCopy() throws -> (Sandbox, copy: String) {
        let sandbox = try Sandbox.withVault(Login(["shared.example"], username: "s", secret: "shared-pw"))
        let copy = sandbox.vaultDirectory + "/vault.sync-conflict-20261123-101500-ABCDEFG.pwtui"
        try FileManager.default.copyItem(atPath: sandbox.vault, toPath: copy)
        try sandbox.add(["kept.example"], username: "k", secret: "kept-pw")
        let other = try sandbox.pwtui(["add", "other.example", "--username", "o", "--vault", copy], stdin: "other-pw")
        try #require(other.exitCode == 0, "\(other)")
        return (sandbox, copy)
    }

    @Test func doctorFindsAConflictCopyAndMergeBringsItsChangesIn() throws {
        let (sandbox, copy) = try Self.vaultAndCopy()
        let doctor = try sandbox.pwtui(["doctor"], password: .none)
        #expect(doctor.exitCode == 0, "\(doctor)")
        #expect(doctor.out.contains("conflict copy"), "\(doctor)")
        #expect(doctor.out.contains("pwtui merge '\(copy)'"), "\(doctor)")

        let merged = try sandbox.pwtui(["merge", copy])
        #expect(merged.exitCode == 0, "\(merged)")
        #expect(merged.err.contains("1 added"), "\(merged)")
        let users = Set(try sandbox.listJSON().compactMap { $0["username"] as? String })
        #expect(users == ["s", "k", "o"])
        let got = try sandbox.pwtui(["get", "other.example"])
        #expect(got.out == "other-pw\n", "\(got)")
        // Merging again changes nothing.
        let before = readBytes(sandbox.vault)
        let again = try sandbox.pwtui(["merge", copy])
        #expect(again.exitCode == 0 && again.err.contains("0 added, 0 changed, 0 removed"), "\(again)")
        #expect(Set(try sandbox.listJSON().compactMap { $0["username"] as? String }) == users)
        #expect(before != nil)
    }

    @Test func aCopyOfAnotherVaultIsRefusedAndNothingChanges() throws {
        let sandbox = try Sandbox.withVault(Login(["a.example"], username: "a", secret: "a-pw"))
        let other = sandbox.root + "/other.pwtui"
        #expect(try sandbox.pwtui(["init", "--kdf", "interactive", "--vault", other]).exitCode == 0)
        let before = readBytes(sandbox.vault)
        let merged = try sandbox.pwtui(["merge", other])
        #expect(merged.exitCode == 64, "\(merged)")
        #expect(merged.err.contains("two different vaults"), "\(merged)")
        #expect(readBytes(sandbox.vault) == before)
    }

    @Test func aCopyUnderAnotherMasterPasswordIsRefusedAndNothingChanges() throws {
        let sandbox = try Sandbox.withVault(Login(["a.example"], username: "a", secret: "a-pw"))
        let copy = sandbox.root + "/copy.pwtui"
        try FileManager.default.copyItem(atPath: sandbox.vault, toPath: copy)
        let passwd = try sandbox.pwtui(["passwd", "--vault", copy, "--new-master-password-fd", "4"], descriptors: [4: .text("another master password 42")])
        try #require(passwd.exitCode == 0, "\(passwd)")
        let before = readBytes(sandbox.vault)
        let merged = try sandbox.pwtui(["merge", copy])
        #expect(merged.exitCode == 77, "\(merged)")
        #expect(merged.err.contains("different master password"), "\(merged)")
        #expect(readBytes(sandbox.vault) == before)
    }

    @Test func theDriverWithoutAgentOrTerminalFailsAndWritesNothing() throws {
        let (sandbox, copy) = try Self.vaultAndCopy()
        let ours = sandbox.root + "/ours.pwtui"
        try FileManager.default.copyItem(atPath: sandbox.vault, toPath: ours)
        let before = readBytes(ours)
        let merged = try sandbox.pwtui(["merge", sandbox.vault + ".bak", ours, copy], password: .none)
        #expect(merged.exitCode == 75, "\(merged)")
        #expect(readBytes(ours) == before)
    }

    @Test func theDriverUsesTheAgentsKey() throws {
        let (sandbox, copy) = try Self.vaultAndCopy()
        try sandbox.startUnlockedAgent()
        defer { sandbox.stopAgent() }
        let ours = sandbox.root + "/ours.pwtui"
        try FileManager.default.copyItem(atPath: sandbox.vault, toPath: ours)
        let merged = try sandbox.pwtui(["merge", "/nonexistent-base", ours, copy], password: .none)
        #expect(merged.exitCode == 0, "\(merged)")
        let users = Set(try sandbox.listJSON(vault: ours).compactMap { $0["username"] as? String })
        #expect(users == ["s", "k", "o"])
    }

    @Test func anOlderCopyIsWarnedAbout() throws {
        let sandbox = try Sandbox.withVault(Login(["a.example"], username: "a", secret: "old-pw"))
        let stale = sandbox.root + "/stale.pwtui"
        try FileManager.default.copyItem(atPath: sandbox.vault, toPath: stale)
        let edit = try sandbox.pwtui(["edit", "a.example", "--password"], stdin: "new-pw")
        try #require(edit.exitCode == 0, "\(edit)")
        let current = try sandbox.pwtui(["get", "a.example"])
        #expect(current.exitCode == 0 && !current.err.contains("older copy"), "\(current)")
        // A sync service serves the old file again.
        try FileManager.default.removeItem(atPath: sandbox.vault)
        try FileManager.default.copyItem(atPath: stale, toPath: sandbox.vault)
        let replayed = try sandbox.pwtui(["get", "a.example"])
        #expect(replayed.exitCode == 0, "\(replayed)")
        #expect(replayed.err.contains("older copy"), "\(replayed)")
        let doctor = try sandbox.pwtui(["doctor"], password: .none)
        #expect(doctor.out.contains("older copy"), "\(doctor)")
        // Another machine's state directory has seen nothing: no warning there.
        let elsewhere = try sandbox.pwtui(["get", "a.example"], environment: ["XDG_STATE_HOME": sandbox.root + "/other-state"])
        #expect(!elsewhere.err.contains("older copy"), "\(elsewhere)")
    }

    @Test func syncWithAnUnreachableRemoteKeepsTheChangeCommitted() throws {
        let sandbox = try Sandbox.withVault(Login(["a.example"], username: "a", secret: "a-pw"))
        let bare = sandbox.root + "/remote.git"
        func git(_ arguments: [String]) throws -> RunResult {
            try sandbox.run("/usr/bin/env", ["git", "-C", sandbox.vaultDirectory, "-c", "user.name=t", "-c", "user.email=t@example.com"] + arguments)
        }
        #expect(try sandbox.run("/usr/bin/env", ["git", "init", "-q", "--bare", bare]).exitCode == 0)
        #expect(try git(["init", "-q"]).exitCode == 0)
        #expect(try git(["remote", "add", "origin", bare]).exitCode == 0)
        let setup = try sandbox.pwtui(["sync", "setup"], password: .none)
        #expect(setup.exitCode == 0, "\(setup)")
        #expect(try String(contentsOfFile: sandbox.vaultDirectory + "/.gitattributes", encoding: .utf8) == "/vault.pwtui merge=pwtui -diff -text\n")
        #expect(try git(["config", "merge.pwtui.driver"]).out.hasSuffix(" merge %O %A %B\n"))
        #expect(try git(["add", "vault.pwtui", ".gitattributes", ".gitignore"]).exitCode == 0)
        #expect(try git(["commit", "-q", "-m", "vault"]).exitCode == 0)
        #expect(try git(["push", "-q", "-u", "origin", "HEAD"]).exitCode == 0)

        try sandbox.add(["b.example"], username: "b", secret: "b-pw")
        // The network goes away.
        try FileManager.default.moveItem(atPath: bare, toPath: bare + ".gone")
        let vaultBefore = readBytes(sandbox.vault)
        let offline = try sandbox.pwtui(["sync"], password: .none)
        #expect(offline.exitCode == 74, "\(offline)")
        #expect(offline.err.contains("committed here"), "\(offline)")
        #expect(readBytes(sandbox.vault) == vaultBefore)
        #expect(try git(["status", "--porcelain", "vault.pwtui"]).out.isEmpty, "the change is committed")
        // Back online: it goes out.
        try FileManager.default.moveItem(atPath: bare + ".gone", toPath: bare)
        let online = try sandbox.pwtui(["sync"], password: .none)
        #expect(online.exitCode == 0, "\(online)")
        #expect(try git(["rev-list", "--count", "@{upstream}..HEAD"]).out == "0\n")
    }

    /// A remote whose `.gitattributes` or `.gitignore` is a link to a file of the user's: setup
    /// once read the target, replaced the link with a regular file holding its contents plus the
    /// merge line, and the next `sync` pushed it. Both now refuse the link and leave it as it is.
    @Test(arguments: [".gitattributes", ".gitignore"])
    func aLinkedRepositoryFileIsRefusedNotReadOrPushed(_ name: String) throws {
        let sandbox = try Sandbox.withVault(Login(["a.example"], username: "a", secret: "a-pw"))
        let secret = sandbox.root + "/id_ed25519"
        try "PRIVATE KEY MATERIAL\n".write(toFile: secret, atomically: true, encoding: .utf8)
        let bare = sandbox.root + "/remote.git"
        let seed = sandbox.root + "/seed"
        func git(_ directory: String, _ arguments: [String]) throws -> RunResult {
            try sandbox.run("/usr/bin/env", ["git", "-C", directory, "-c", "user.name=t", "-c", "user.email=t@example.com"] + arguments)
        }
        #expect(try sandbox.run("/usr/bin/env", ["git", "init", "-q", "--bare", "-b", "main", bare]).exitCode == 0)
        try FileManager.default.createDirectory(atPath: seed, withIntermediateDirectories: true)
        #expect(try git(seed, ["init", "-q", "-b", "main"]).exitCode == 0)
        try FileManager.default.createSymbolicLink(atPath: seed + "/" + name, withDestinationPath: secret)
        #expect(try git(seed, ["add", name]).exitCode == 0)
        #expect(try git(seed, ["commit", "-q", "-m", "innocent"]).exitCode == 0)
        #expect(try git(seed, ["push", "-q", bare, "main"]).exitCode == 0)
        #expect(try git(sandbox.vaultDirectory, ["init", "-q", "-b", "main"]).exitCode == 0)
        #expect(try git(sandbox.vaultDirectory, ["remote", "add", "origin", bare]).exitCode == 0)
        #expect(try git(sandbox.vaultDirectory, ["pull", "-q", "origin", "main"]).exitCode == 0)
        #expect(try git(sandbox.vaultDirectory, ["branch", "-q", "-u", "origin/main"]).exitCode == 0)
        let link = sandbox.vaultDirectory + "/" + name
        try #require(try FileManager.default.destinationOfSymbolicLink(atPath: link) == secret)

        let setup = try sandbox.pwtui(["sync", "setup"], password: .none)
        #expect(setup.exitCode == 74, "\(setup)")
        #expect(setup.err.contains("/vault/\(name) is a symbolic link"), "\(setup)")
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link)) == secret, "the link is left a link")
        #expect(try String(contentsOfFile: secret, encoding: .utf8) == "PRIVATE KEY MATERIAL\n")
        let other = name == ".gitignore" ? ".gitattributes" : ".gitignore"
        #expect(!FileManager.default.fileExists(atPath: sandbox.vaultDirectory + "/" + other), "nothing half set up")

        // Set up by hand (as an older pwtui would have): sync refuses the link too.
        #expect(try git(sandbox.vaultDirectory, ["config", "merge.pwtui.driver", "true"]).exitCode == 0)
        let sync = try sandbox.pwtui(["sync"], password: .none)
        #expect(sync.exitCode == 74, "\(sync)")
        #expect(sync.err.contains("symbolic link"), "\(sync)")
        let pushed = try git(bare, ["log", "-p", "--all"])
        #expect(!pushed.out.contains("PRIVATE KEY MATERIAL"), "\(pushed)")
    }
}
