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
