// The agent as every program's door (issue 35): long work never shuts it. A vault holding what
// once wedged it — an RSA-4096 key, a 4,000-character secret field, a 20,000-character password —
// is audited while gets are asked, and a stop ends it whatever it is doing.

import Foundation
import Platform
import PwtuiTestSupport
@testable import Commands
import Passwords
import SSHKeys
import ServiceMatching
import Testing
import VaultAgent
import VaultCrypto
import VaultModel

@Suite("Agent concurrency, in process")
struct AgentConcurrencyInProcessTests {
    /// The fixture's vault with the three secrets that made the estimate cubic in their length,
    /// written through the agent.
    static func heavyFixture() throws -> AgentInProcessTests.Fixture {
        let fixture = try AgentInProcessTests.Fixture()
        _ = try fixture.unlock()
        try GenerateSSHKey(title: "build key", hosts: [], confirm: .never, type: .rsa, bits: 4096)
            .run(in: fixture.context)
        let access = try VaultAccess.open(fixture.context)
        let long = String(String(repeating: "correct horse battery staple ", count: 690).prefix(20_000))
        let added = try access.apply(
            .add(services: ["long.example"], username: "me", title: "", notes: "", rank: 0),
            secret: try SecureBytes(copying: Array(long.utf8)))
        try access.apply(
            .edit(id: added.id.uuidString, .init(setField: .init(name: "recovery"))),
            secret: try SecureBytes(copying: Array(String(repeating: "0123456789abcdef", count: 250).utf8)))
        return fixture
    }

    static func audit(_ fixture: AgentInProcessTests.Fixture) throws -> AuditReport {
        let body = try Self.body(fixture.client.ask(.audit(vault: fixture.context.vaultPath, options: .init())))
        guard case .audit(let report) = body else { throw AgentError.unexpected(body) }
        return report
    }

    /// The reply's body; a declined request fails the test.
    static func body(_ answer: consuming AgentMessage<AgentReply>?) throws -> AgentReply {
        switch consume answer {
        case .some(let message): return message.body
        case .none: throw AgentError.protocolError("the agent declined (locked?)")
        }
    }

    @Test(
        "an audit of an RSA-4096 key, a 4,000-byte field and a 20,000-byte password ends in seconds; 20 gets during it are answered within a second each"
    )
    func auditBesideGets() throws {
        nonisolated(unsafe) let fixture = try Self.heavyFixture()
        let started = ContinuousClock.now
        let report = try Self.audit(fixture)
        let alone = ContinuousClock.now - started
        #expect(alone < .seconds(5), "the audit alone took \(alone)")
        #expect(report.audited == 3)
        #expect(report.findings(of: try #require(UUID(uuidString: try Self.id(fixture, "long.example")))).isEmpty)

        // Audits back to back on one thread; gets on this one meanwhile.
        let done = Lock()
        nonisolated(unsafe) var audits = 0
        nonisolated(unsafe) var failure: (any Error)?
        let auditing = Thread {
            for _ in 0 ..< 3 {
                do { _ = try Self.audit(fixture) } catch { done.withLock { failure = error } }
                done.withLock { audits += 1 }
            }
        }
        auditing.start()
        var slowest = Duration.zero
        for _ in 0 ..< 20 {
            let asked = ContinuousClock.now
            let answer = try fixture.client.get(
                CredentialQuery(services: [try ServiceIdentifier("github.com")]), field: .password,
                vault: fixture.context.vaultPath)
            slowest = max(slowest, ContinuousClock.now - asked)
            switch consume answer {
            case .some(let message): #expect(AgentInProcessTests.text(message.payload) == "gh-secret\n")
            case .none: Issue.record("the agent declined a get")
            }
        }
        #expect(slowest < .seconds(1), "the slowest get took \(slowest)")
        #expect(SSHApprovalInProcessTests.poll(timeout: .seconds(30)) { done.withLock { audits == 3 } })
        #expect(done.withLock { failure } == nil)
    }

    static func id(_ fixture: AgentInProcessTests.Fixture, _ service: String) throws -> String {
        let body = try Self.body(
            fixture.client.get(
                CredentialQuery(services: [try ServiceIdentifier(service)]), field: .password,
                vault: fixture.context.vaultPath))
        guard case .credential(let identity, _, _) = body else { throw AgentError.unexpected(body) }
        return identity.id.uuidString
    }

    @Test("long work ends when its client hangs up, and at its deadline, between two credentials")
    func abandoned() throws {
        let fixture = try Self.heavyFixture()
        let contents = try Vault.open(
            at: fixture.context.vaultPath, password: try SecureBytes(copying: Array("master".utf8)),
            environment: .cheapKeyDerivation
        ).contents
        #expect(throws: AgentWorkStopped.abandoned) {
            try VaultAudit.report(
                of: contents, options: .init(), now: Clock.system.now(),
                limit: AgentWorkLimit(deadline: .now + .seconds(60), abandoned: { true }))
        }
        #expect(throws: AgentWorkStopped.pastDeadline) {
            try VaultAudit.report(
                of: contents, options: .init(), now: Clock.system.now(),
                limit: AgentWorkLimit(deadline: .now - .seconds(1), abandoned: { false }))
        }
    }

    @Test("the agent writes its use history at most once a second, however many connections it accepts")
    func usesWrittenOncePerSecond() throws {
        let fixture = try AgentInProcessTests.Fixture()
        _ = try fixture.unlock()
        let path = fixture.context.paths.usageFile
        var written: [FileStatus] = []
        var id = ""
        // What the accept loop does: `idle` before each connection, here 20 gets in a row.
        for _ in 0 ..< 20 {
            fixture.service.idle()
            id = try Self.id(fixture, "github.com")
            if let status = try? FileSystem.status(path), !written.contains(status) { written.append(status) }
        }
        #expect(written.count <= 2, "written \(written.count) times")
        Thread.sleep(forTimeInterval: 1.1)
        fixture.service.idle()
        let used = try #require(UUID(uuidString: id))
        #expect(UsageHistoryFile(path: path).read().useCount(used) == 20)
    }

    @Test("a stop ends the agent's turns at once: a write in progress gets at most its time limit")
    func stopIsBounded() throws {
        let fixture = try AgentInProcessTests.Fixture()
        _ = try fixture.unlock()
        let stopped = ContinuousClock.now
        fixture.service.stop(within: .milliseconds(600))
        #expect(ContinuousClock.now - stopped < .milliseconds(600))
        #expect(!fixture.service.isUnlocked, "the vault is dropped")

        // A writer that holds the turn: the stop gives up after its time and the process may end.
        let lock = ReadWriteLock()
        let holding = Lock()
        holding.lock()
        let writer = Thread {
            lock.write { holding.lock() }
            holding.unlock()
        }
        writer.start()
        Thread.sleep(forTimeInterval: 0.05)
        let waited = ContinuousClock.now
        #expect(lock.tryWrite(within: .milliseconds(200)) { true } == nil)
        let took = ContinuousClock.now - waited
        #expect(took >= .milliseconds(190) && took < .seconds(1), "waited \(took)")
        holding.unlock()
        #expect(lock.read { true }, "a reader held back for the timed-out writer goes on once the writer is done")
    }

    @Test("every rating is bounded: 20,000 bytes cost what their first 100 do, and keep its verdict")
    func boundedEstimate() {
        let prefix = Array("Tr0ub4dor&3-correct-horse-battery-staple-2026-qwerty".utf8)
        let long = prefix + Array(repeating: UInt8(ascii: "x"), count: 20_000 - prefix.count)
        let short = prefix + Array(repeating: UInt8(ascii: "x"), count: PasswordStrength.examinedBytes - prefix.count)
        let longStrength = long.withUnsafeBytes { PasswordStrength(utf8: $0) }
        let shortStrength = short.withUnsafeBytes { PasswordStrength(utf8: $0) }
        #expect(longStrength == shortStrength, "only the first 100 bytes are judged")
        // A cut inside a character backs up to the character's start, never leaving half of it.
        let accented = Array(repeating: Array("é".utf8), count: 80).flatMap { $0 }
        let cut = accented.withUnsafeBytes { PasswordStrength.examinedPrefix(of: $0).count }
        #expect(cut == 100, "50 two-byte characters")
        let odd = [UInt8(ascii: "a")] + accented
        #expect(odd.withUnsafeBytes { PasswordStrength.examinedPrefix(of: $0).count } == 99)
    }

    @Test("audit judges an SSH key by type and size: RSA-1024 is weak, RSA-4096 is not, whatever its digits look like")
    func keysBySize() throws {
        let fixture = try Self.heavyFixture()
        // pwtui makes and imports no RSA key under 2048 bits; one kept by hand (or by another
        // manager) is made here by OpenSSL, as PKCS#8 DER, the form the vault keeps.
        let der = try Self.run(
            "/bin/sh",
            [
                "-c",
                "openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:1024 2>/dev/null"
                    + " | openssl pkcs8 -topk8 -nocrypt -outform DER",
            ])
        let hex = der.map { String(format: "%02x", $0) }.joined()
        var then = CredentialChange.Edits()
        then.kind = .sshKey
        try VaultAccess.open(fixture.context).apply(
            .add(services: [], username: "", title: "old key", notes: "", rank: 0, then: then),
            secret: try SecureBytes(copying: Array(hex.utf8)))
        let report = try Self.audit(fixture)
        #expect(report.credentials.allSatisfy { $0.title != "build key" }, "\(report.credentials)")
        let old = try #require(report.credentials.first { $0.title == "old key" })
        #expect(old.findings == [.weakKey(type: "rsa", bits: 1024)])
    }

    static func run(_ program: String, _ arguments: [String]) throws -> [UInt8] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Array(data)
    }

    @Test("an RSA key's size is its modulus's bits; Ed25519 and P-256 are 256")
    func sizes() throws {
        for (type, bits, expected) in [(SSHKeyType.rsa, 2048, 2048), (.rsa, 3072, 3072), (.ed25519, nil, 256)] {
            let key = try type.newPrivateKey(bits: bits)
            let size = try SSHPrivateKey.size(key)
            #expect(size == SSHKeySize(type: type, bits: expected))
            #expect(!size.isWeak)
        }
        #expect(SSHKeySize(type: .rsa, bits: 1024).isWeak)
        #expect(!SSHKeySize(type: .ecdsa, bits: 256).isWeak)
        #expect(
            AuditFinding.weakKey(type: "rsa", bits: 1024).summary.hasPrefix("weak: an RSA key of 1024 bits"))
    }
}

@Suite("One way to the agent, in process")
struct OneWayToTheAgentInProcessTests {
    @Test("every answer through the unlocked agent warns of an older vault file: get and copy alike (issue 35)")
    func rollbackWarnedOnEveryAnswer() throws {
        let fixture = try AgentInProcessTests.Fixture()
        _ = try fixture.unlock()
        let older = try Data(contentsOf: URL(fileURLWithPath: fixture.context.vaultPath))
        try VaultAccess.open(fixture.context).apply(
            .add(services: ["gitlab.com"], username: "tanuki", title: "", notes: "", rank: 0),
            secret: try SecureBytes(copying: Array("gl-secret".utf8)))
        // An older copy put back (a stale backup, a sync that served an old file).
        try older.write(to: URL(fileURLWithPath: fixture.context.vaultPath))
        let query = CredentialQuery(services: [try ServiceIdentifier("github.com")])
        let commands: [(String, () throws -> Void)] = [
            (
                "get",
                { try GetCredential(query: query, field: .password, noInteraction: true).run(in: fixture.context) }
            ),
            ("copy", { try CopyPassword(query: query).run(in: fixture.context) }),
        ]
        for (name, command) in commands {
            let before = fixture.streams.messages.count
            _ = try? command()
            let said = fixture.streams.messages[before...].joined(separator: "\n")
            #expect(said.contains("it is an older copy"), "\(name) said: \(said)")
        }
    }
}

extension OneWayToTheAgentInProcessTests {
    @Test("equivalents add and rm through an unlocked agent, with no terminal: saved to the file (issue 35)")
    func equivalentsThroughTheAgent() throws {
        let fixture = try AgentInProcessTests.Fixture()
        _ = try fixture.unlock()
        try EditEquivalents.add(["example.com", "example.net"], in: fixture.context)
        #expect(fixture.streams.messages.last == "Equivalent: example.com example.net")
        func saved() throws -> [[String]] {
            try Vault.open(
                at: fixture.context.vaultPath, password: try SecureBytes(copying: Array("master".utf8)),
                environment: .cheapKeyDerivation
            ).contents.equivalents.groups
        }
        #expect(try saved() == [["example.com", "example.net"]])
        try EditEquivalents.remove(["example.net"], in: fixture.context)
        #expect(try saved().isEmpty)
        #expect(throws: AgentRefusal.self) { try EditEquivalents.remove(["example.org"], in: fixture.context) }
    }
}

extension OneWayToTheAgentInProcessTests {
    @Test(
        "import through an unlocked agent, with no terminal: one save, the same report; a dry run saves nothing (issue 35)"
    )
    func importThroughTheAgent() throws {
        let fixture = try AgentInProcessTests.Fixture()
        _ = try fixture.unlock()
        let csv = fixture.root + "/export.csv"
        try "name,url,username,password\nGitLab,https://gitlab.com,tanuki,gl-secret\n".write(
            toFile: csv, atomically: true, encoding: .utf8)
        func saved() throws -> [String] {
            try Vault.open(
                at: fixture.context.vaultPath, password: try SecureBytes(copying: Array("master".utf8)),
                environment: .cheapKeyDerivation
            ).contents.credentials.map(\.username).sorted()
        }
        try ImportCredentials(path: csv, dryRun: true).run(in: fixture.context)
        #expect(try saved() == ["octocat"], "a dry run changes nothing")
        try ImportCredentials(path: csv).run(in: fixture.context)
        #expect(try saved() == ["octocat", "tanuki"])
        #expect(fixture.streams.messages.contains { $0.contains("holds every password in plaintext") })
        let get = try AgentConcurrencyInProcessTests.body(
            fixture.client.get(
                CredentialQuery(services: [try ServiceIdentifier("gitlab.com")]), field: .password,
                vault: fixture.context.vaultPath))
        guard case .credential(let identity, _, _) = get else { throw AgentError.unexpected(get) }
        #expect(identity.username == "tanuki", "the agent holds what it saved")

        // An entry that cannot be imported: 65, nothing saved, with the report's reason.
        try "name,url,username,password\nA,https://a.example/,u,pa\nC,https://c.example/,u,pc,extra\n".write(
            toFile: csv, atomically: true, encoding: .utf8)
        #expect {
            try ImportCredentials(path: csv).run(in: fixture.context)
        } throws: { error in
            (error as? CommandFailure)?.code == .corrupt
                && (error as? CommandFailure)?.message.contains("cannot be imported") == true
        }
        #expect(try saved() == ["octocat", "tanuki"])
    }
}
