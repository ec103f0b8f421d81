import Foundation
import Testing

/// A FIFO, or a link to a FIFO or a device, where pwtui reads a file: every read goes through
/// Platform's `RegularFile`, so each is refused with what it is (or ignored where the file only
/// remembers something), never waited on. Every run has a time limit, so a regression fails
/// here instead of hanging the suite.
@Suite("FIFOs and devices where files should be")
struct SpecialFileTests {
    static let limit: Duration = .seconds(20)

    /// A FIFO at `path`, in place of whatever was there.
    static func fifo(_ path: String) throws {
        try? FileManager.default.removeItem(atPath: path)
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
        #expect(mkfifo(path, 0o600) == 0, "mkfifo \(path): errno \(errno)")
    }

    @Test("a FIFO as the settings file is a clear error")
    func settings() throws {
        let sandbox = try Sandbox.withVault(Login(["a.example"], username: "a", secret: "a-pw"))
        try Self.fifo(sandbox.root + "/xdg/config/pwtui/config.toml")
        // `equivalents off` rewrites the settings and says why not;
        // commands that only consult them (add, get) go on with the defaults: neither waits.
        let listed = try sandbox.pwtui(["equivalents", "off", "themeforest.net"], password: .none, timeout: Self.limit)
        #expect(!listed.timedOut && listed.exitCode == 64, "\(listed)")
        #expect(listed.err.contains("config.toml is a FIFO (named pipe)"), "\(listed)")
        let add = try sandbox.pwtui(["add", "b.example", "--username", "b"], stdin: "b-pw", timeout: Self.limit)
        #expect(!add.timedOut && add.exitCode == 0, "\(add)")
    }

    @Test("FIFOs as the generations file, the password-change marker and git's rejections are ignored")
    func rememberedFiles() throws {
        let sandbox = try Sandbox.withVault(Login(["a.example"], username: "a", secret: "a-pw"))
        try Self.fifo(sandbox.root + "/xdg/state/pwtui/generations")
        try Self.fifo(sandbox.root + "/xdg/state/pwtui/git-rejected")
        try Self.fifo(sandbox.vaultDirectory + "/.vault.pwtui.passwd-pending")
        let get = try sandbox.pwtui(["get", "a.example"], timeout: Self.limit)
        #expect(!get.timedOut && get.exitCode == 0 && get.out == "a-pw\n", "\(get)")
        let git = try sandbox.pwtui(
            ["git-credential", "get"], stdin: "protocol=https\nhost=a.example\n\n", timeout: Self.limit)
        #expect(!git.timedOut && git.exitCode == 0 && git.out.contains("password=a-pw"), "\(git)")
    }

    @Test("a pass store whose entries are a FIFO and links to a FIFO, /dev/zero and /dev/urandom: each refused by name")
    func passStoreEntries() throws {
        let sandbox = try Sandbox.withVault()
        let store = sandbox.scratch + "/store"
        try FileManager.default.createDirectory(atPath: store, withIntermediateDirectories: true)
        try "nobody@example.com\n".write(toFile: store + "/.gpg-id", atomically: true, encoding: .utf8)
        try Self.fifo(store + "/pipe.example.gpg")
        try FileManager.default.createSymbolicLink(
            atPath: store + "/linked-pipe.example.gpg", withDestinationPath: store + "/pipe.example.gpg")
        try FileManager.default.createSymbolicLink(
            atPath: store + "/zero.example.gpg", withDestinationPath: "/dev/zero")
        try FileManager.default.createSymbolicLink(
            atPath: store + "/random.example.gpg", withDestinationPath: "/dev/urandom")
        let home = sandbox.root + "/gnupg"
        try FileManager.default.createDirectory(
            atPath: home, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer { _ = try? sandbox.run("/usr/bin/env", ["gpgconf", "--homedir", home, "--kill", "gpg-agent"]) }
        let result = try sandbox.pwtui(
            ["import", store, "--dry-run"], environment: ["GNUPGHOME": home], timeout: Self.limit)
        #expect(!result.timedOut, "\(result)")
        let text = result.out + result.err
        #expect(text.contains("invalid   pipe.example (is a FIFO (named pipe), not a regular file"), "\(result)")
        #expect(text.contains("invalid   linked-pipe.example (is a FIFO (named pipe)"), "\(result)")
        #expect(
            text.contains("invalid   zero.example (is a character device")
                && text.contains("invalid   random.example (is a character device"),
            "\(result)")
    }

    @Test("export --output into a directory whose lock another process holds gives up with a message")
    func heldDirectoryLock() throws {
        let sandbox = try Sandbox.withVault(Login(["a.example"], username: "a", secret: "a-pw"))
        let shared = sandbox.root + "/shared"
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: true)
        // Another user's process holding the directory's lock and never letting go.
        let holder = try sandbox.start("/usr/bin/flock", [shared, "sleep", "120"])
        defer { holder.signal(SIGKILL); _ = holder.wait(timeout: .seconds(5)) }
        Thread.sleep(forTimeInterval: 0.3)
        let export = try sandbox.pwtui(
            ["export", "--format", "csv", "--output", shared + "/out.csv"], timeout: .seconds(60))
        #expect(!export.timedOut && export.exitCode == 74, "\(export)")
        #expect(export.err.contains("stayed locked by another process"), "\(export)")
        #expect(!FileManager.default.fileExists(atPath: shared + "/out.csv"))
    }
}
