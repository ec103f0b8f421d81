// The save protocol's contracts where a fault makes them easy to break (docs/design.md#saving,
// issue 10): 74 means unchanged, so an error after the rename is 73 and says the change is saved; a
// vault path that is not a regular file is refused without blocking anyone; a symlinked vault is
// saved beside its target and stays a link. Faults are injected with strace.

import Foundation
import Testing
#if canImport(Glibc)
    import Glibc
#endif

@Suite("Save protocol under faults")
struct SaveFaultTests {
    /// strace, or the test fails saying how to get it.
    func strace() throws -> String { try Binaries.requireStrace() }

    /// pwtui under strace, its `call` number `when` failing with `error`. The password on fd 3.
    func pwtuiWithFault(
        _ sandbox: Sandbox, _ arguments: [String], call: String, when: Int, error: String,
        descriptors: [Int32: Redirect] = [:], stdin: String? = nil
    ) throws -> RunResult {
        var descriptors = descriptors
        descriptors[3] = .text(sandbox.password)
        return try sandbox.run(
            try strace(),
            [
                "-f", "-o", "/dev/null", "-e", "trace=\(call)",
                "-e", "inject=\(call):error=\(error):when=\(when)",
                try Binaries.require(Binaries.pwtui),
            ] + arguments + ["--master-password-fd", "3"],
            stdin: stdin.map { .text($0) }, descriptors: descriptors)
    }

    /// Which `call`, counted from the first, is the first after the vault's rename whose traced
    /// line satisfies `isTheOne`, for `arguments` run in a sandbox that `setup` prepares. strace
    /// can pick a call only by its number, and how many come before (a passwd marker, a key file)
    /// is the code's business, not the test's: a traced run in a twin sandbox counts them.
    func callAfterRename(
        _ call: String, _ arguments: [String], descriptors: [Int32: Redirect] = [:], stdin: String? = nil,
        setup: (Sandbox) throws -> Void, isTheOne: (Substring) -> Bool
    ) throws -> Int {
        let twin = try Sandbox()
        try setup(twin)
        let log = twin.scratch + "/\(call).log"
        var descriptors = descriptors
        descriptors[3] = .text(twin.password)
        let traced = try twin.run(
            try strace(),
            [
                "-f", "-y", "-s", "4096", "-o", log, "-e", "trace=\(call),rename",
                try Binaries.require(Binaries.pwtui),
            ] + arguments + ["--master-password-fd", "3"],
            stdin: stdin.map { .text($0) }, descriptors: descriptors)
        try #require(traced.exitCode == 0, "\(traced)")
        let lines = String(decoding: readBytes(log) ?? [], as: UTF8.self).split(separator: "\n")
        let vaultName = (twin.vault as NSString).lastPathComponent
        let renamed = try #require(lines.firstIndex { $0.contains("rename(") && $0.hasSuffix("/\(vaultName)\") = 0") })
        let theOne = try #require(lines[renamed...].firstIndex { $0.contains("\(call)(") && isTheOne($0) })
        return lines[...theOne].filter { $0.contains("\(call)(") }.count
    }

    /// The directory's fsync right after the rename (its path, shown by `-y`, ends in the vault's folder).
    func directorySyncAfterRename(
        _ arguments: [String], descriptors: [Int32: Redirect] = [:], stdin: String? = nil,
        setup: (Sandbox) throws -> Void
    ) throws -> Int {
        try callAfterRename("fsync", arguments, descriptors: descriptors, stdin: stdin, setup: setup) {
            $0.contains("/vault>")
        }
    }

    /// A Chrome CSV of 300 logins with long notes, in the sandbox: its import is one change too
    /// large for a journal record (over the 64 KiB a small vault's journal may hold), so it is
    /// saved as a new snapshot, through the rename these tests are about. (`add`, `edit` and `rm`
    /// append records: JournalFaultTests.)
    func largeImport(in sandbox: Sandbox, prefix: String = "bulk") throws -> String {
        let file = sandbox.root + "/\(prefix).csv"
        var csv = "name,url,username,password,note\n"
        for number in 0 ..< 300 {
            csv += "\(prefix)\(number),https://\(prefix)\(number).example/,user\(number),pw-\(number),"
            csv += String(repeating: "n", count: 300) + "\n"
        }
        try writeBytes(Array(csv.utf8), to: file)
        return file
    }

    // MARK: After the rename

    @Test("passwd whose directory fsync fails with EIO: 73, 'saved', and the new password is in force")
    func passwdDirectorySyncFails() throws {
        let sandbox = try Sandbox.withVault(Login(["github.com"], username: "alice", secret: "s3cret"))
        let arguments = ["passwd", "--new-master-password-fd", "4"]
        let when = try directorySyncAfterRename(arguments, descriptors: [4: .text("a brand new password")]) { twin in
            try twin.initVault()
            try twin.add(["github.com"], username: "alice", secret: "s3cret")
        }
        let passwd = try pwtuiWithFault(
            sandbox, arguments, call: "fsync", when: when,
            error: "EIO", descriptors: [4: .text("a brand new password")])
        #expect(passwd.exitCode == 73, "\(passwd)")
        #expect(passwd.err.contains("syncing directory"), "the fault hit the directory fsync: \(passwd)")
        #expect(passwd.err.contains("saved") && passwd.err.contains("in force"), "\(passwd)")
        #expect(!passwd.err.contains("unchanged"), "the vault did change: \(passwd)")

        let new = try sandbox.pwtui(["get", "github.com"], password: .text("a brand new password"))
        #expect(new.exitCode == 0 && new.out == "s3cret\n", "the new master password is in force: \(new)")
        #expect(try sandbox.pwtui(["get", "github.com"]).exitCode == 77, "the old one no longer opens it")
    }

    @Test("an import saved as a snapshot whose directory fsync fails: 73, and the credentials are there")
    func importDirectorySyncFails() throws {
        let sandbox = try Sandbox.withVault()
        let arguments = ["import", try largeImport(in: sandbox)]
        let when = try directorySyncAfterRename(arguments) { try $0.initVault() }
        let add = try pwtuiWithFault(sandbox, arguments, call: "fsync", when: when, error: "EIO")
        #expect(add.exitCode == 73, "\(add)")
        #expect(add.err.contains("syncing directory") && !add.err.contains("unchanged"), "\(add)")
        #expect(try sandbox.pwtui(["get", "bulk7.example"]).out == "pw-7\n")
        #expect(
            try sandbox.pwtui(["suggest", "bulk7.example"], password: .none).exitCode == 0,
            "the identity store followed the change that is in force")
    }

    @Test(
        "an import whose directory cannot be opened for its fsync after the rename: 73, and the credentials are there")
    func importDirectoryOpenFails() throws {
        let sandbox = try Sandbox.withVault()
        // The openat of the vault's directory after the rename gets EACCES.
        let arguments = ["import", try largeImport(in: sandbox)]
        let when = try callAfterRename("openat", arguments, setup: { try $0.initVault() }) {
            $0.contains("O_DIRECTORY")
        }
        let add = try pwtuiWithFault(sandbox, arguments, call: "openat", when: when, error: "EACCES")
        #expect(add.exitCode == 73, "\(add)")
        #expect(add.err.contains("opening directory") && !add.err.contains("unchanged"), "\(add)")
        #expect(try sandbox.pwtui(["get", "bulk299.example"]).out == "pw-299\n")
    }

    @Test("add whose new id cannot be written to stdout (ENOSPC): 73, saved, never 'unchanged'")
    func addStdoutFull() throws {
        let sandbox = try Sandbox.withVault()
        let add = try sandbox.pwtui(
            ["add", "github.com", "--username", "alice"], stdin: "s3cret", preamble: "exec 1>/dev/full")
        #expect(add.exitCode == 73, "\(add)")
        #expect(add.err.contains("is saved") && !add.err.contains("unchanged"), "\(add)")
        let entries = try sandbox.listJSON()
        #expect(entries.count == 1 && entries.first?["username"] as? String == "alice")
        if let id = entries.first?["id"] as? String {
            #expect(add.err.contains(id), "the message names the saved credential: \(add)")
        }
    }

    @Test("a failure before the rename is still 74 and leaves the vault byte-identical")
    func temporarySyncFailsIsUnchanged() throws {
        let sandbox = try Sandbox.withVault()
        let file = try largeImport(in: sandbox)
        let before = try sandbox.vaultDirectoryFiles()
        let add = try pwtuiWithFault(sandbox, ["import", file], call: "fsync", when: 1, error: "EIO")
        #expect(add.exitCode == 74 && add.err.contains("unchanged"), "\(add)")
        #expect(try sandbox.vaultDirectoryFiles() == before)
        #expect(try sandbox.temporaryFiles().isEmpty)
    }

    @Test("kill -9 while .bak is being replaced: a .bak remains, and it opens")
    func killWhileReplacingBackup() throws {
        let sandbox = try Sandbox.withVault(Login(["github.com"], username: "alice", secret: "s3cret"))
        // Two imports saved as snapshots: the first makes a .bak, the second is killed replacing it.
        try #require(try sandbox.pwtui(["import", try largeImport(in: sandbox, prefix: "first")]).exitCode == 0)
        try #require(FileManager.default.fileExists(atPath: sandbox.vault + ".bak"))
        // The save's first link() makes the new .bak: held back 20 s, in which the saver is killed.
        let child = try sandbox.start(
            try strace(),
            [
                "-f", "-o", "/dev/null", "-e", "trace=link",
                "-e", "inject=link:delay_enter=20000000:when=1",
                try Binaries.require(Binaries.pwtui), "import", try largeImport(in: sandbox, prefix: "second"),
                "--master-password-fd", "3",
            ],
            descriptors: [3: .text(sandbox.password)], detachTerminal: false)
        // The temporary image exists before .bak is touched; give the saver time to reach link().
        let writing = try poll(timeout: .seconds(15)) { !(try sandbox.temporaryFiles()).isEmpty }
        usleep(500_000)
        child.signal(SIGKILL)
        child.wait()
        try #require(writing, "the save never wrote its temporary file")
        let backup = try sandbox.pwtui(["list", "--format", "json", "--vault", sandbox.vault + ".bak"])
        #expect(backup.exitCode == 0, "the .bak is there and opens: \(backup)")
        #expect(try sandbox.pwtui(["get", "github.com"]).out == "s3cret\n", "the vault is the old one")
        try sandbox.add(["after.example"], username: "u", secret: "after")
        #expect(try sandbox.temporaryFiles().isEmpty, "the next save removes what the killed one left")
    }

    // MARK: Not a regular file

    @Test(
        "a FIFO at the vault path: list, suggest and get refuse at once (66), naming it",
        arguments: [
            ["list"], ["suggest", "github.com"], ["get", "github.com"], ["add", "x.example", "--username", "u"],
        ])
    func fifoRefused(_ arguments: [String]) throws {
        let sandbox = try Sandbox.withVault(Login(["github.com"], username: "alice", secret: "s3cret"))
        try FileManager.default.removeItem(atPath: sandbox.vault)
        try #require(mkfifo(sandbox.vault, 0o600) == 0)
        let result = try sandbox.pwtui(
            arguments, password: arguments[0] == "suggest" ? .none : .standard,
            stdin: "secret", timeout: .seconds(10))
        #expect(!result.timedOut, "blocked on the FIFO: \(result)")
        #expect(result.exitCode == 66, "\(result)")
        #expect(result.err.contains("FIFO"), "\(result)")
        var info = stat()
        #expect(lstat(sandbox.vault, &info) == 0 && (info.st_mode & S_IFMT) == S_IFIFO, "the FIFO is left alone")
    }

    @Test(
        "a FIFO put at the vault path of an unlocked agent: it answers at once, keeps answering, and still locks when idle"
    )
    func fifoUnderAgent() throws {
        let sandbox = try Sandbox.withVault(Login(["github.com"], username: "alice", secret: "s3cret"))
        let start = try sandbox.pwtui(
            ["agent", "start", "--idle-timeout", "3s"], password: .none, timeout: .seconds(15))
        try #require(start.exitCode == 0, "\(start)")
        defer { _ = try? sandbox.pwtui(["agent", "stop"], password: .none) }
        try #require(try sandbox.pwtui(["unlock"]).exitCode == 0)
        try #require(try sandbox.pwtui(["get", "github.com", "--no-interaction"], password: .none).exitCode == 0)

        try FileManager.default.moveItem(atPath: sandbox.vault, toPath: sandbox.vault + ".aside")
        try #require(mkfifo(sandbox.vault, 0o600) == 0)
        let get = try sandbox.pwtui(["get", "github.com", "--no-interaction"], password: .none, timeout: .seconds(10))
        #expect(get.exitCode == 66 && get.err.contains("FIFO"), "\(get)")
        let status = try sandbox.pwtui(["agent", "status"], password: .none, timeout: .seconds(10))
        #expect(status.exitCode == 0, "the agent still answers: \(status)")
        let locked = poll(timeout: .seconds(8), every: .milliseconds(200)) {
            (try? sandbox.pwtui(["agent", "status"], password: .none, timeout: .seconds(10)).exitCode) == 75
        }
        #expect(locked, "the agent locked when idle")
    }

    // MARK: Symbolic links

    @Test("a vault that is a symlink: saves go to the target, beside it; the link stays a link")
    func symlinkedVault() throws {
        let sandbox = try Sandbox()
        let synced = sandbox.root + "/synced"
        try FileManager.default.createDirectory(atPath: synced, withIntermediateDirectories: true)
        let target = synced + "/real.pwtui"
        // A relative link, as `ln -s ../synced/real.pwtui` makes.
        try #require(symlink("../synced/real.pwtui", sandbox.vault) == 0)
        try sandbox.initVault()
        try sandbox.add(["github.com"], username: "alice", secret: "first")
        try sandbox.add(["gitlab.com"], username: "bob", secret: "second")
        // The adds were journal records appended to the target; a snapshot replaces it beside it.
        try #require(try sandbox.pwtui(["import", try largeImport(in: sandbox)]).exitCode == 0)

        var info = stat()
        #expect(lstat(sandbox.vault, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK, "the link is still a link")
        #expect(lstat(target, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG, "the target is the vault")
        let names = Set(try FileManager.default.contentsOfDirectory(atPath: synced))
        #expect(
            names == ["real.pwtui", "real.pwtui.bak", "real.pwtui.lock"], "lock and .bak beside the target: \(names)")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: sandbox.vaultDirectory) == ["vault.pwtui"],
            "nothing beside the link")
        let get = try sandbox.pwtui(["get", "gitlab.com", "--vault", target])
        #expect(get.out == "second\n", "the target has every change: \(get)")
    }
}
