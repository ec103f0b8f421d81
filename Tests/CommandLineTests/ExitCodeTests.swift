// The exit codes of docs/design.md#exit-codes, and the promise that goes with the error ones: the
// vault on disk is left exactly as it was.

import Foundation
import Testing

@Suite("Exit codes")
struct ExitCodeTests {
    @Test("No vault at the path: 66, before asking for any password")
    func missingVault() throws {
        let sandbox = try Sandbox()
        let withPassword = try sandbox.pwtui(["get", "github.com"])
        #expect(withPassword.exitCode == 66, "\(withPassword)")
        #expect(withPassword.stdout.isEmpty)
        #expect(withPassword.err.contains(sandbox.vault), "names the path: \(withPassword)")

        let withoutPassword = try sandbox.pwtui(["list"], password: .none)
        #expect(withoutPassword.exitCode == 66, "a missing vault beats a missing terminal: \(withoutPassword)")

        let elsewhere = try sandbox.pwtui(["get", "github.com", "--vault", sandbox.root + "/nowhere/v.pwtui"])
        #expect(elsewhere.exitCode == 66, "\(elsewhere)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.root + "/nowhere"), "get must not create directories")
    }

    @Test(
        "Usage errors exit 64",
        arguments: [
            ["get", "--bogus", "github.com"],
            ["add", "github.com"],
            ["get"],
            ["get", "github.com", "--id"],
            ["list", "--vault"],
            ["get", "github.com", "--field", ""],
            ["frobnicate"],
        ])
    func usageErrors(arguments: [String]) throws {
        let sandbox = try Sandbox.withVault()
        let before = try sandbox.vaultDirectoryFiles()
        let result = try sandbox.pwtui(arguments, password: .none)
        #expect(result.exitCode == 64, "\(result)")
        #expect(result.stdout.isEmpty, "\(result)")
        #expect(!result.stderr.isEmpty, "says what is wrong: \(result)")
        #expect(try sandbox.vaultDirectoryFiles() == before)
    }

    /// The helper's "not found" goes through the one mapping (issue 39): 1, docker-credential-helpers'
    /// own message on stdout, which docker and podman read, and nothing on the person's terminal.
    @Test("docker's helper with nothing for a registry: 1, its message on stdout alone")
    func dockerHelperNotFound() throws {
        let sandbox = try Sandbox.withVault(Login(["github.com"], username: "alice", secret: "s3cret"))
        let result = try sandbox.pwtui(["docker-credential", "get"], stdin: "registry.example:5000\n")
        #expect(result.exitCode == 1, "\(result)")
        #expect(result.out == "credentials not found in native keychain\n", "\(result)")
        #expect(result.stderr.isEmpty, "\(result)")
    }

    @Test("get with no terminal and no --master-password-fd exits 75 at once")
    func interactionRequired() throws {
        let sandbox = try Sandbox.withVault(Login(["github.com"], username: "alice", secret: "s3cret"))
        // Run in a new session with stdin on /dev/null: no controlling terminal, nothing to read.
        let result = try sandbox.pwtui(["get", "github.com"], password: .none, timeout: .seconds(10))
        #expect(result.exitCode == 75, "\(result)")
        #expect(result.stdout.isEmpty, "\(result)")
        #expect(result.err.contains("--master-password-fd"), "tells how to pass the password: \(result)")
        #expect(result.duration < .seconds(2), "answers at once, without waiting or deriving keys: \(result)")
    }

    @Test("A vault with one byte flipped in the middle: 65, and the file is unchanged")
    func corruptVault() throws {
        let sandbox = try Sandbox.withVault(Login(["github.com"], username: "alice", secret: "s3cret"))
        let size = try #require(readBytes(sandbox.vault)).count
        try flipByte(at: size / 2, in: sandbox.vault)
        let damaged = try #require(readBytes(sandbox.vault))

        let get = try sandbox.pwtui(["get", "github.com"])
        #expect(get.exitCode == 65, "\(get)")
        #expect(get.stdout.isEmpty, "\(get)")
        #expect(get.err.contains("damaged"), "\(get)")
        #expect(readBytes(sandbox.vault) == damaged, "reading must not change the file")

        let add = try sandbox.pwtui(["add", "gitlab.com", "--username", "bob"], stdin: "other")
        #expect(add.exitCode == 65, "\(add)")
        #expect(readBytes(sandbox.vault) == damaged, "a failed add must not change the file")
        #expect(try sandbox.temporaryFiles().isEmpty)
    }

    @Test("A damaged header is reported as damage (65) before any key derivation")
    func corruptHeader() throws {
        let sandbox = try Sandbox.withVault()
        try flipByte(at: 60, in: sandbox.vault)  // inside the salt: only the checksum notices
        let damaged = try #require(readBytes(sandbox.vault))
        let result = try sandbox.pwtui(["list"])
        #expect(result.exitCode == 65, "\(result)")
        #expect(result.err.contains("checksum"), "\(result)")
        #expect(readBytes(sandbox.vault) == damaged)
    }

    @Test("An unknown major version: 65 on open, and add leaves the file byte-identical")
    func unknownMajorVersion() throws {
        let sandbox = try Sandbox.withVault(Login(["github.com"], username: "alice", secret: "s3cret"))
        // The checksum no longer matches either; the version is checked first and must win.
        try patchHeader(sandbox.vault, sandbox: sandbox, u16: [8: 2], fixChecksum: false)
        let patched = try #require(readBytes(sandbox.vault))
        let before = try sandbox.vaultDirectoryFiles()

        let get = try sandbox.pwtui(["get", "github.com"])
        #expect(get.exitCode == 65, "\(get)")
        #expect(get.stdout.isEmpty)
        #expect(get.err.contains("version 2"), "names the version, not a checksum: \(get)")

        let add = try sandbox.pwtui(["add", "gitlab.com", "--username", "bob"], stdin: "other")
        #expect(add.exitCode == 65, "\(add)")
        #expect(readBytes(sandbox.vault) == patched, "a newer vault must never be overwritten")
        #expect(try sandbox.vaultDirectoryFiles() == before, "nor its .bak or anything next to it")
    }

    struct HostileKDF: Sendable, CustomTestStringConvertible {
        let opsLimit: UInt32
        let memLimitKiB: UInt32
        var testDescription: String { "\(opsLimit) passes, \(memLimitKiB) KiB" }
    }

    @Test(
        "A header asking for too much key derivation: 65 at once, with a message about it",
        arguments: [
            HostileKDF(opsLimit: 11, memLimitKiB: 64 * 1024),
            HostileKDF(opsLimit: 3, memLimitKiB: 1024 * 1024 + 1),
            HostileKDF(opsLimit: 4, memLimitKiB: 4 * 1024 * 1024),
            HostileKDF(opsLimit: 1_000_000, memLimitKiB: 64 * 1024),
        ])
    func keyDerivationBounds(kdf: HostileKDF) throws {
        let sandbox = try Sandbox.withVault(Login(["github.com"], username: "alice", secret: "s3cret"))
        try patchHeader(
            sandbox.vault, sandbox: sandbox, u32: [42: kdf.opsLimit, 46: kdf.memLimitKiB], fixChecksum: true)
        let patched = try #require(readBytes(sandbox.vault))

        let result = try sandbox.pwtui(["get", "github.com"])
        #expect(result.exitCode == 65, "\(result)")
        #expect(result.stdout.isEmpty)
        #expect(result.err.contains("key derivation"), "\(result)")
        #expect(!result.err.contains("checksum"), "the patched header must pass its checksum: \(result)")
        #expect(result.duration < .milliseconds(1500), "refused before running the KDF: \(result)")
        #expect(readBytes(sandbox.vault) == patched)
    }

    @Test("init on an existing vault fails and changes nothing")
    func initRefusesExistingVault() throws {
        let sandbox = try Sandbox.withVault(Login(["github.com"], username: "alice", secret: "s3cret"))
        let before = try sandbox.vaultDirectoryFiles()

        let result = try sandbox.pwtui(["init", "--kdf", "interactive"], password: .text("another password"))
        #expect(result.exitCode == 64, "\(result)")
        #expect(result.err.contains("already exists"), "\(result)")
        #expect(try sandbox.vaultDirectoryFiles() == before)
        #expect(try sandbox.pwtui(["get", "github.com"]).out == "s3cret\n", "the old password still opens it")
    }

    @Test("rm without --yes and without a terminal: 75, nothing deleted")
    func removeNeedsConfirmation() throws {
        let sandbox = try Sandbox.withVault()
        let id = try sandbox.add(["github.com"], username: "alice", secret: "s3cret")
        let before = try #require(readBytes(sandbox.vault))

        let result = try sandbox.pwtui(["rm", id])
        #expect(result.exitCode == 75, "\(result)")
        #expect(result.err.contains("--yes"), "\(result)")
        #expect(readBytes(sandbox.vault) == before)
        let get = try sandbox.pwtui(["get", "github.com"])
        #expect(get.exitCode == 0 && get.out == "s3cret\n", "\(get)")
    }

    @Test("get --id takes the full id or a unique prefix of 4+ characters; shorter is a usage error")
    func idPrefixes() throws {
        let sandbox = try Sandbox.withVault()
        let id = try sandbox.add(["github.com"], username: "alice", secret: "s3cret")
        try sandbox.add(["gitlab.com"], username: "bob", secret: "other")

        for text in [id, String(id.prefix(4)), String(id.prefix(8)), id.prefix(6).uppercased()] {
            let result = try sandbox.pwtui(["get", "--id", text])
            #expect(result.exitCode == 0 && result.out == "s3cret\n", "--id \(text): \(result)")
        }
        let short = try sandbox.pwtui(["get", "--id", String(id.prefix(3))])
        #expect(short.exitCode == 64, "\(short)")
        #expect(short.stdout.isEmpty)
        #expect(short.err.contains("4 characters"), "\(short)")

        // A prefix no id has (ids are lowercase hex): no match.
        let unknown = try sandbox.pwtui(["get", "--id", "zzzz"])
        #expect(unknown.exitCode == 1, "\(unknown)")
    }

    @Test("get --id with a prefix that several ids share is a usage error (64)")
    func ambiguousIDPrefix() throws {
        let sandbox = try Sandbox.withVault()
        // Ids are random: two of them share a 4-character prefix only among a few hundred
        // credentials (about 320 on average, by the birthday bound over 65,536 prefixes). The save
        // loop adds them quickly, one save each after a single key derivation, while the test lists
        // the vault every 100 credentials until two ids share a prefix.
        let saveLoop = try Binaries.require(Binaries.saveLoop)
        let child = try sandbox.start(saveLoop, [sandbox.vault], stdin: .text(sandbox.password), detachTerminal: false)
        defer {
            child.signal(SIGKILL)
            child.wait(timeout: .seconds(10))
        }
        var shared: (prefix: String, ids: [String])?
        var listedAt = 0
        let found = try poll(timeout: .seconds(120), every: .milliseconds(50)) {
            let lines = String(decoding: child.currentStdout(), as: UTF8.self).split(separator: "\n")
            guard let count = lines.last.flatMap({ Int($0.split(separator: " ").last ?? "") }), count >= listedAt + 100
            else {
                return !child.isRunning
            }
            listedAt = count
            let ids = try sandbox.listJSON().compactMap { $0["id"] as? String }
            #expect(ids.count >= count, "the list has every saved credential")
            shared = Dictionary(grouping: ids) { String($0.prefix(4)) }
                .first { $0.value.count > 1 }
                .map { (prefix: $0.key, ids: $0.value) }
            return shared != nil
        }
        try #require(
            found && shared != nil,
            "no shared 4-character id prefix among \(listedAt) credentials: \(child.wait(timeout: .seconds(1)))")
        let (prefix, ids) = try #require(shared)

        let ambiguous = try sandbox.pwtui(["get", "--id", prefix])
        #expect(ambiguous.exitCode == 64, "\(ambiguous)")
        #expect(ambiguous.stdout.isEmpty, "\(ambiguous)")
        #expect(ambiguous.err.contains(ids[0]) || ambiguous.err.contains("matches"), "\(ambiguous)")

        // Each of them is still reachable by its full id.
        let first = try sandbox.pwtui(["get", "--id", ids[0], "--field", "username"])
        #expect(first.exitCode == 0 && first.out.hasPrefix("u"), "\(first)")
    }

    @Test(
        "audit: 3 when a password should change (the report on stdout, no secret), 0 when none, 64 for a bad --older-than"
    )
    func audit() throws {
        let weak = try Sandbox.withVault(Login(["github.com"], username: "alice", secret: "s3cret"))
        let found = try weak.pwtui(["audit", "--format", "json"])
        #expect(found.exitCode == 3, "\(found)")
        #expect(found.out.contains("\"kind\":\"weak\"") && !found.out.contains("s3cret"), "\(found)")
        #expect(found.err.contains("1 of 1 password needs changing"), "\(found)")
        let strong = try Sandbox.withVault(Login(["github.com"], username: "alice", secret: "Vq8#mT2!zLp9@xR4wK7$"))
        let clean = try strong.pwtui(["audit"])
        #expect(clean.exitCode == 0 && clean.out.contains("Nothing found."), "\(clean)")
        let bad = try strong.pwtui(["audit", "--older-than", "soon"], password: .none)
        #expect(bad.exitCode == 64 && bad.err.contains("--older-than"), "\(bad)")
    }
}
