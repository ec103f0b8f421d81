// `sync setup`, `sync` and `merge` in process (`SetUpSync`, `SyncVault`, `MergeVaults`), with
// real git for the repository: what each prints and says, and what the vault holds afterwards.
// Two machines and git's merge driver through the binary stay in CommandLineTests.

import Foundation
import Platform
@testable import Commands
import PwtuiTestSupport
import ServiceMatching
import Testing
import TUI
import VaultAgent
import VaultCrypto
import VaultModel

@Suite("sync setup, sync and merge, in process")
struct SyncInProcessTests {
    /// `git ARGUMENTS` in `directory`, started through `Platform.ChildProcess`; its exit status.
    @discardableResult
    static func git(_ arguments: [String], in directory: String) throws -> Int32 {
        let identity = [
            "-c", "user.name=pwtui tests", "-c", "user.email=tests@pwtui.invalid", "-c", "init.defaultBranch=main",
        ]
        let child = try ChildProcess.start("git", identity + ["-C", directory] + arguments)
        guard case .exited(let status) = child.wait() else { return -1 }
        return status
    }

    @Test("sync outside a git repository: 64, saying how to make one")
    func notARepository() throws {
        let fixture = try CommandFixture()
        let (failure, streams) = try fixture.failure { try SyncVault().run(in: $0) }
        #expect(
            failure?.code == .usage && failure?.message.contains("is not in a git repository") == true,
            "\(String(describing: failure))")
        #expect(streams.output.isEmpty)
    }

    @Test("sync setup prints what it set for git; sync then sends the vault's change to the remote and says so")
    func setUpAndSync() throws {
        let fixture = try CommandFixture([("github.com", "octocat", "gh-secret", "GitHub")])
        let directory = fixture.root + "/vault", remote = fixture.root + "/remote.git"
        #expect(try Self.git(["init", "-q", "--bare", remote], in: fixture.root) == 0)
        #expect(try Self.git(["init", "-q"], in: directory) == 0)
        #expect(try Self.git(["remote", "add", "origin", remote], in: directory) == 0)

        let setup = try fixture.run { try SetUpSync().run(in: $0) }
        let lines = setup.output.split(separator: "\n")
        #expect(lines.first == "\(directory)/.gitattributes: /vault.pwtui merge=pwtui -diff -text", "\(setup.output)")
        #expect(
            lines.last?.hasPrefix("git config merge.pwtui.driver \"") == true
                && lines.last?.hasSuffix(" merge %O %A %B\"") == true)
        #expect(
            setup.messages == [
                "pwtui: set up; 'pwtui sync' commits the vault (and .gitattributes), pulls, merges and pushes."
            ])

        let (noUpstream, _) = try fixture.failure { try SyncVault().run(in: $0) }
        #expect(
            noUpstream?.code == .usage && noUpstream?.message.contains("git push -u origin HEAD") == true,
            "\(String(describing: noUpstream))")
        #expect(try Self.git(["add", "-A"], in: directory) == 0)
        #expect(try Self.git(["commit", "-q", "-m", "start"], in: directory) == 0)
        #expect(try Self.git(["push", "-q", "-u", "origin", "HEAD"], in: directory) == 0)

        let vault = try fixture.vault()
        try vault.add(
            services: [try ServiceIdentifier("gitlab.com")], username: "tanuki",
            secret: try SecureBytes(copying: "gl".utf8), title: "GitLab")
        try vault.save()
        let synced = try fixture.run { try SyncVault().run(in: $0) }
        #expect(
            synced.messages.last == "pwtui: synced vault.pwtui: sent this machine's change, nothing new from elsewhere",
            "\(synced.messages)")
        let again = try fixture.run { try SyncVault().run(in: $0) }
        #expect(again.messages.last == "pwtui: synced vault.pwtui: nothing to send, nothing new from elsewhere")
    }

    /// A repository for the fixture's vault with a bare remote, set up for sync and pushed once.
    static func syncedRepository(_ fixture: CommandFixture) throws {
        let directory = fixture.root + "/vault", remote = fixture.root + "/remote.git"
        #expect(try Self.git(["init", "-q", "--bare", remote], in: fixture.root) == 0)
        #expect(try Self.git(["init", "-q"], in: directory) == 0)
        #expect(try Self.git(["remote", "add", "origin", remote], in: directory) == 0)
        _ = try fixture.run { try SetUpSync().run(in: $0) }
        #expect(try Self.git(["add", "-A"], in: directory) == 0)
        #expect(try Self.git(["commit", "-q", "-m", "start"], in: directory) == 0)
        #expect(try Self.git(["push", "-q", "-u", "origin", "HEAD"], in: directory) == 0)
    }

    /// Issue 37: sync folds the journal into a new snapshot before it commits, when the key is at
    /// hand without asking (here `--master-password-fd`), so that git stores snapshots; without
    /// it the file is committed with its records, as it is (correct, only larger). Either way
    /// what is committed is the vault as it is, every change in it.
    @Test("sync compacts the journal before it commits when the key is at hand, and commits it as it is when not")
    func syncCompactsTheJournal() throws {
        let fixture = try CommandFixture([("github.com", "octocat", "gh-secret", "GitHub")])
        let path = fixture.context.vaultPath, directory = fixture.root + "/vault"
        try Self.syncedRepository(fixture)
        func addAndSave(_ username: String) throws {
            let vault = try fixture.vault()
            try vault.add(
                services: [try ServiceIdentifier("gitlab.com")], username: username,
                secret: try SecureBytes(copying: "gl".utf8), title: "GitLab")
            try vault.save()
        }
        func committedIsTheFile() throws -> Bool {
            try Self.git(["diff", "--quiet", "HEAD", "--", "vault.pwtui"], in: directory) == 0
        }

        try addAndSave("tanuki")
        let (header, journaled) = try VaultStorage.loadVersion(path)
        #expect(journaled.changes == 1, "the add is a record after the snapshot")
        _ = try fixture.run { try SyncVault().run(in: $0) }
        #expect(try VaultStorage.loadVersion(path).1 == journaled, "no key at hand: committed as it is")
        #expect(try committedIsTheFile())
        _ = try fixture.run(passwordOnDescriptor: true) { try SyncVault().run(in: $0) }
        #expect(
            try VaultStorage.loadVersion(path).1 == journaled,
            "the key at hand, but nothing to commit: the file as committed stays (no commit for a compaction alone)")

        try addAndSave("tanuki2")
        let synced = try fixture.run(passwordOnDescriptor: true) { try SyncVault().run(in: $0) }
        #expect(
            synced.messages.last == "pwtui: synced vault.pwtui: sent this machine's change, nothing new from elsewhere",
            "\(synced.messages)")
        let compacted = try VaultStorage.loadVersion(path)
        #expect(compacted.1 == VaultVersion(generation: header.generation + 1), "one snapshot, no record after it")
        #expect(try committedIsTheFile())
        #expect(
            Set(try fixture.vault().contents.credentials.map(\.username)) == ["octocat", "tanuki", "tanuki2"])
    }

    /// The everyday case: an unlocked agent holds the vault and compacts it (`AgentRequest.compact`),
    /// then answers from the new snapshot.
    @Test("sync through an unlocked agent: the agent compacts the journal before the commit")
    func syncCompactsThroughTheAgent() throws {
        let agent = try AgentInProcessTests.Fixture()
        let path = agent.context.vaultPath, remote = agent.root + "/remote.git"
        #expect(try Self.git(["init", "-q", "--bare", remote], in: agent.root) == 0)
        #expect(try Self.git(["init", "-q"], in: agent.root) == 0)
        #expect(try Self.git(["remote", "add", "origin", remote], in: agent.root) == 0)
        try SetUpSync().run(in: agent.context)
        #expect(try Self.git(["add", "vault.pwtui", ".gitattributes"], in: agent.root) == 0)
        #expect(try Self.git(["commit", "-q", "-m", "start"], in: agent.root) == 0)
        #expect(try Self.git(["push", "-q", "-u", "origin", "HEAD"], in: agent.root) == 0)
        #expect(try agent.unlock() == .done)
        let vault = try Vault.open(at: path, password: try SecureBytes(copying: "master".utf8))
        try vault.add(
            services: [try ServiceIdentifier("gitlab.com")], username: "tanuki",
            secret: try SecureBytes(copying: "gl".utf8), title: "GitLab")
        try vault.save()
        let (header, journaled) = try VaultStorage.loadVersion(path)
        #expect(journaled.changes == 1)

        try SyncVault().run(in: agent.context)
        #expect(try VaultStorage.loadVersion(path).1 == VaultVersion(generation: header.generation + 1))
        #expect(try Self.git(["diff", "--quiet", "HEAD", "--", "vault.pwtui"], in: agent.root) == 0)
        let answer = try agent.client.request(
            .identities(vault: path, username: "tanuki"))?.body
        guard case .identities(let identities, _) = answer else {
            Issue.record("\(String(describing: answer))")
            return
        }
        #expect(identities.map(\.title) == ["GitLab"])
    }

    @Test("merge COPY: a copy's new credential and edit come in, with the master password typed once; the copy may go")
    func mergeCopy() throws {
        let fixture = try CommandFixture([("github.com", "octocat", "gh-secret", "GitHub")])
        let copy = fixture.root + "/vault (conflicted copy).pwtui"
        try FileManager.default.copyItem(atPath: fixture.context.vaultPath, toPath: copy)
        let other = try Vault.open(at: copy, password: try SecureBytes(copying: CommandFixture.password.utf8))
        try other.add(
            services: [try ServiceIdentifier("gitlab.com")], username: "tanuki",
            secret: try SecureBytes(copying: "gl".utf8), title: "GitLab")
        try other.save()

        let recorded = try fixture.run(typing: CommandFixture.unlock) {
            try MergeVaults(files: .copy(copy)).run(in: $0)
        }
        #expect(recorded.messages.last?.hasPrefix("pwtui: merged \(copy): ") == true, "\(recorded.messages)")
        #expect(recorded.messages.last?.hasSuffix("; \(copy) can be deleted now") == true)
        #expect(Set(try fixture.vault().contents.credentials.map(\.username)) == ["octocat", "tanuki"])

        let (wrong, _) = try fixture.failure(typing: [.secret("not it")]) {
            try MergeVaults(files: .copy(copy)).run(in: $0)
        }
        #expect(wrong?.code == .wrongPassword, "\(String(describing: wrong))")
    }
}
