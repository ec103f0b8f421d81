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

        // doctor no longer asks to merge it: it says it can go (issue 26, 11). The copy's own .bak
        // (its changes were journal records, so it has none of its own yet) is no copy either.
        try FileManager.default.copyItem(atPath: copy, toPath: copy + ".bak")
        let after = try sandbox.pwtui(["doctor"], password: .none)
        #expect(
            !after.out.contains("pwtui merge") && after.out.contains("already merged")
                && after.out.contains("rm '\(copy)'"), "\(after)")
        #expect(
            FileManager.default.fileExists(atPath: copy + ".bak") && !after.out.contains(".bak"),
            "a copy's own backup is no copy: \(after)")
        // The copy written again by the sync service (new contents): asked again.
        let changed = try sandbox.pwtui(
            ["add", "third.example", "--username", "t", "--vault", copy], stdin: "third-pw")
        #expect(changed.exitCode == 0, "\(changed)")
        #expect(try sandbox.pwtui(["doctor"], password: .none).out.contains("pwtui merge '\(copy)'"))
    }

    @Test("doctor calls a read-only vault folder what it is: nothing can be saved there (issue 26, 11)")
    func doctorFindsAReadOnlyFolder() throws {
        let sandbox = try Sandbox.withVault(Login(["a.example"], username: "a", secret: "a-pw"))
        #expect(try sandbox.pwtui(["doctor"], password: .none).out.contains("looks fine"))
        chmod(sandbox.vaultDirectory, 0o500)
        defer { chmod(sandbox.vaultDirectory, 0o700) }
        let pwtui = try Binaries.require(Binaries.pwtui)
        let doctor: RunResult
        if getuid() == 0 {
            // root writes in any folder: the person doctor speaks for is an ordinary user, so it
            // runs as nobody, the sandbox opened to it for the time of the check.
            let opened = [sandbox.root, sandbox.root + "/xdg", sandbox.vaultDirectory]
            for path in opened { chmod(path, 0o755) }
            chmod(sandbox.vault, 0o644)
            defer {
                for path in opened { chmod(path, 0o700) }
                chmod(sandbox.vaultDirectory, 0o500)
                chmod(sandbox.vault, 0o600)
            }
            doctor = try sandbox.run(
                "/usr/bin/setpriv", ["--reuid=nobody", "--regid=nogroup", "--clear-groups", pwtui, "doctor"])
        } else {
            doctor = try sandbox.pwtui(["doctor"], password: .none)
        }
        #expect(
            doctor.out.contains("is read-only") && doctor.out.contains("chmod u+w '\(sandbox.vaultDirectory)'"),
            "\(doctor)")
    }

    @Test func aCopyOfAnotherVaultIsRefusedAndNothingChanges() throws {
        let sandbox = try Sandbox.withVault(Login(["a.example"], username: "a", secret: "a-pw"))
        let other = sandbox.root + "/other.pwtui"
        try sandbox.initVault(at: other)
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
        let passwd = try sandbox.pwtui(
            ["passwd", "--vault", copy, "--new-master-password-fd", "4"],
            descriptors: [4: .text("another master password 42")])
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
        // git's helper opens the vault the one way too (issue 24, 5).
        let helper = try sandbox.pwtui(["git-credential", "get"], stdin: "protocol=https\nhost=a.example\n\n")
        #expect(helper.exitCode == 0 && helper.err.contains("older copy"), "\(helper)")
        let doctor = try sandbox.pwtui(["doctor"], password: .none)
        #expect(doctor.out.contains("older copy"), "\(doctor)")
        // Another machine's state directory has seen nothing: no warning there.
        let elsewhere = try sandbox.pwtui(
            ["get", "a.example"], environment: ["XDG_STATE_HOME": sandbox.root + "/other-state"])
        #expect(!elsewhere.err.contains("older copy"), "\(elsewhere)")
    }

    @Test("an older conflict copy is named by doctor and merge, and its older values do not win (issue 24, 3)")
    func anOlderConflictCopyIsNamedAndDoesNotWin() throws {
        let sandbox = try Sandbox.withVault(Login(["a.example"], username: "a", secret: "a-pw"))
        let copy = sandbox.vaultDirectory + "/vault.sync-conflict-20261123-101500-ABCDEFG.pwtui"
        try FileManager.default.copyItem(atPath: sandbox.vault, toPath: copy)
        let edit = try sandbox.pwtui(["edit", "a.example", "--notes", "set since", "--password"], stdin: "new-pw")
        try #require(edit.exitCode == 0, "\(edit)")
        let doctor = try sandbox.pwtui(["doctor"], password: .none)
        #expect(doctor.out.contains("it is below generation") && doctor.out.contains("an older copy"), "\(doctor)")
        let merged = try sandbox.pwtui(["merge", copy])
        #expect(merged.exitCode == 0 && merged.err.contains("an older copy"), "\(merged)")
        #expect(merged.err.contains(copy) && merged.err.contains("0 changed"), "\(merged)")
        let shown = try sandbox.pwtui(["show", "a.example", "--reveal", "--format", "json"])
        #expect(shown.out.contains("set since") && shown.out.contains("\"password\":\"new-pw\""), "\(shown)")
    }

    @Test func syncWithAnUnreachableRemoteKeepsTheChangeCommitted() throws {
        let sandbox = try Sandbox.withVault(Login(["a.example"], username: "a", secret: "a-pw"))
        let bare = sandbox.root + "/remote.git"
        func git(_ arguments: [String]) throws -> RunResult {
            try sandbox.run(
                "/usr/bin/env",
                ["git", "-C", sandbox.vaultDirectory, "-c", "user.name=t", "-c", "user.email=t@example.com"] + arguments
            )
        }
        #expect(try sandbox.run("/usr/bin/env", ["git", "init", "-q", "--bare", bare]).exitCode == 0)
        #expect(try git(["init", "-q"]).exitCode == 0)
        #expect(try git(["remote", "add", "origin", bare]).exitCode == 0)
        let setup = try sandbox.pwtui(["sync", "setup"], password: .none)
        #expect(setup.exitCode == 0, "\(setup)")
        #expect(
            try String(contentsOfFile: sandbox.vaultDirectory + "/.gitattributes", encoding: .utf8)
                == "/vault.pwtui merge=pwtui -diff -text\n")
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
        #expect(
            online.err.contains("sent 1 change,") && !online.err.contains("nothing to send"),
            "what the last sync could not push went out with this one (issue 26, 11): \(online)")
        let idle = try sandbox.pwtui(["sync"], password: .none)
        #expect(idle.err.contains("nothing to send, nothing new from elsewhere"), "\(idle)")
    }
}

@Suite("a master password changed on one machine, synced to another", .serialized)
struct PasswordChangeSyncTests {
    @Test(
        "passwd on machine A, then sync on machine B with a change of its own: B is told why, asked for the new password once (and its own, with no agent), and both end under the new one (issue 26, 6)"
    )
    func passwdReachesTheOtherMachine() throws {
        let clones = try TwoClones(Login(["a.example"], username: "a", secret: "a-pw"))
        let (a, b) = (clones.a, clones.b)

        // B changes something; A changes the master password and sends it.
        try b.add(["b.example"], username: "b", secret: "b-pw")
        let newPassword = "a brand new master passphrase"
        let passwd = try a.pwtui(["passwd", "--new-master-password-fd", "4"], descriptors: [4: .text(newPassword)])
        #expect(passwd.exitCode == 0, "\(passwd)")
        #expect(try a.pwtui(["sync"], password: .none).exitCode == 0)

        // B syncs on a terminal: one question for the new password, one for its own old one.
        let tmux = try TmuxSession.shellReady(sandbox: b)
        let pwtui = try Binaries.require(Binaries.pwtui)
        try tmux.enter("'\(pwtui)' sync; echo EXIT=$?")
        let told = try tmux.requirePane { $0.contains("The new master password (set on the other machine):") }
        #expect(told.contains("changed on another machine"), "\(told)")
        #expect(!told.contains(".merge_file"), "git's temporary files are not named: \(told)")
        try tmux.enter(newPassword)
        try tmux.requirePane { $0.contains("Master password (the previous one, this copy's):") }
        try tmux.enter(b.password)
        let done = try tmux.waitForPane(timeout: .seconds(30)) {
            $0.range(of: "EXIT=[0-9]", options: .regularExpression) != nil
        }
        #expect(done?.contains("EXIT=0") == true, "\(done ?? "")")
        #expect(
            done.map { $0.components(separatedBy: "master password").count - 1 } ?? 0 <= 4,
            "asked once each: \(done ?? "")")

        // B's vault is under the new password, with both changes; A gets B's change under it too.
        let bGet = try b.pwtui(["get", "b.example"], password: .text(newPassword))
        #expect(bGet.exitCode == 0 && bGet.out == "b-pw\n", "\(bGet)")
        #expect(
            try b.pwtui(["get", "a.example"], password: .standard).exitCode == 77, "the old password no longer opens it"
        )
        #expect(try a.pwtui(["sync"], password: .none).exitCode == 0)
        let aGet = try a.pwtui(["get", "b.example"], password: .text(newPassword))
        #expect(aGet.exitCode == 0 && aGet.out == "b-pw\n", "\(aGet)")
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
            try sandbox.run(
                "/usr/bin/env",
                ["git", "-C", directory, "-c", "user.name=t", "-c", "user.email=t@example.com"] + arguments)
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
