// `pwtui audit` in process (`AuditCredentials`): a vault with each kind of finding — weak,
// reused (as a password and in a secret field), old, breached — against a generated ordered hash
// file and range directory; exit 3 with findings, 0 without; a wrong file refused before the
// master password is asked; through an unlocked agent; and never a secret in what is printed.

import Foundation
import Platform
import PwtuiTestSupport
@testable import Commands
import TUITestDoubles
import Testing
import TUI
import VaultAgent
import VaultCrypto
import VaultModel

@Suite("audit, in process")
struct AuditInProcessTests {
    static let passwords = [
        "weak": "password1", "strong": "Vq8#mT2!zLp9@xR4wK7$", "reused": "Reused-Pass-7Yq!kM2x",
        "bank": "Zt5&nW3qPc8*hJ1v", "shared": "Field-Shared-9kQ!wE4r",
    ]

    /// Weak (also breached), Strong (nothing), Reuse A and B (one password), Field Site (its
    /// password is Bank's secret field PIN), Bank (a strong password of its own).
    static func fixture() throws -> CommandFixture {
        let fixture = try CommandFixture([
            ("weak.example", "w", passwords["weak"] ?? "", "Weak"),
            ("strong.example", "s", passwords["strong"] ?? "", "Strong"),
            ("a.example", "a", passwords["reused"] ?? "", "Reuse A"),
            ("b.example", "b", passwords["reused"] ?? "", "Reuse B"),
            ("field.example", "f", passwords["shared"] ?? "", "Field Site"),
            ("bank.example", "kim", passwords["bank"] ?? "", "Bank"),
        ])
        let vault = try fixture.vault()
        let bank = try vault.credential(id: id(of: "Bank", in: vault))
        try vault.setField(
            of: bank.id, name: "PIN", text: nil,
            secret: try SecureBytes(copying: Array((passwords["shared"] ?? "").utf8)))
        try vault.save()
        return fixture
    }

    static func id(of title: String, in vault: Vault) -> String {
        vault.contents.credentials.first { $0.title == title }?.id.uuidString ?? ""
    }

    static func sha1(_ password: String) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 20)
        Array(password.utf8).withUnsafeBytes { bytes in
            out.withUnsafeMutableBytes { PwnedPasswordDigest.digest(of: bytes, into: $0) }
        }
        return out
    }

    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02X", $0) }.joined() }

    /// An ordered hash file with the weak password (seen 42 times) among 3,000 random hashes.
    static func breachFile(in directory: String) throws -> String {
        var generator = SeededGenerator(seed: 3)
        var lines = (0 ..< 3000).map { _ in
            hex((0 ..< 20).map { _ in UInt8.random(in: 0 ... 255, using: &generator) }) + ":7"
        }
        lines.append(hex(sha1(passwords["weak"] ?? "")) + ":42")
        lines.sort()
        let path = directory + "/pwned-passwords-sha1-ordered-by-hash.txt"
        try (lines.joined(separator: "\r\n") + "\r\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// The report as JSON, decoded: title → the kinds of finding.
    static func kinds(_ json: String) throws -> [String: [String]] {
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        let credentials = object?["credentials"] as? [[String: Any]] ?? []
        var kinds: [String: [String]] = [:]
        for credential in credentials {
            let findings = credential["findings"] as? [[String: Any]] ?? []
            kinds[credential["title"] as? String ?? "?"] = findings.compactMap { $0["kind"] as? String }
        }
        return kinds
    }

    static func expectNoSecret(_ text: String) {
        for password in passwords.values { #expect(!text.contains(password), "a password in: \(text)") }
    }

    @Test("each kind found, as JSON and as a table; exit 3; no password in stdout or stderr")
    func eachKind() throws {
        let fixture = try Self.fixture()
        let file = try Self.breachFile(in: fixture.root)
        let (failure, streams) = try fixture.failure(typing: CommandFixture.unlock) {
            try AuditCredentials(breachSource: file, format: .json).run(in: $0)
        }
        #expect(failure?.code == .auditFindings)
        #expect(ExitStatus.auditFindings.rawValue == 3)
        let kinds = try Self.kinds(streams.output)
        #expect(kinds["Weak"] == ["weak", "breached"])
        #expect(kinds["Reuse A"] == ["reused"] && kinds["Reuse B"] == ["reused"])
        #expect(kinds["Field Site"] == ["reused"])
        #expect(kinds["Strong"] == nil && kinds["Bank"] == nil, "\(kinds)")
        #expect(streams.output.contains("\"kind\":\"breached\",\"count\":42"))
        #expect(streams.output.contains("\"field\":\"PIN\""), "the field that holds Field Site's password is named")
        Self.expectNoSecret(streams.output + streams.errorText)

        let table = try fixture.failure(typing: CommandFixture.unlock) {
            try AuditCredentials(breachSource: file).run(in: $0)
        }
        #expect(table.failure?.code == .auditFindings)
        #expect(table.failure?.message == "4 of 6 passwords need changing: 1 weak, 3 reused, 0 old, 1 breached")
        let text = table.streams.output
        #expect(text.contains("breached: seen 42 times in Have I Been Pwned's Pwned Passwords"), "\(text)")
        #expect(text.contains("reused: also the field PIN of Bank ("), "\(text)")
        #expect(text.contains("weak: about "), "\(text)")
        Self.expectNoSecret(text + table.streams.errorText)
    }

    @Test("old: a password set longer ago than --older-than; not with a longer threshold")
    func old() throws {
        let fixture = try Self.fixture()
        let later = Clock {
            Timestamp(millisecondsSince1970: Clock.system.now().millisecondsSince1970 + 400 * 86_400_000)
        }
        let (failure, streams) = try fixture.failure(typing: CommandFixture.unlock) {
            try AuditCredentials(breachSource: nil, olderThanDays: 365, format: .json, clock: later).run(in: $0)
        }
        #expect(failure?.code == .auditFindings)
        let kinds = try Self.kinds(streams.output)
        #expect(kinds["Strong"] == ["old"] && kinds["Bank"] == ["old"], "\(kinds)")
        #expect(kinds["Weak"] == ["weak", "old"], "no breach check without --hibp")
        #expect(streams.output.contains("\"days\":400") || streams.output.contains("\"days\":399"))
        let longer = try fixture.failure(typing: CommandFixture.unlock) {
            try AuditCredentials(breachSource: nil, olderThanDays: 500, format: .json, clock: later).run(in: $0)
        }
        #expect(try Self.kinds(longer.streams.output)["Strong"] == nil)
        #expect(AuditCredentials.days("365d") == 365 && AuditCredentials.days("2y") == 730)
        #expect(AuditCredentials.days("26w") == 182 && AuditCredentials.days("90") == 90)
        #expect(AuditCredentials.days("3m") == nil && AuditCredentials.days("-1d") == nil)
    }

    @Test("nothing found: exit 0 and says so; against a range directory too")
    func clean() throws {
        let fixture = try CommandFixture([("strong.example", "s", Self.passwords["strong"] ?? "", "Strong")])
        let directory = fixture.root + "/ranges"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let digest = Self.hex(Self.sha1(Self.passwords["strong"] ?? ""))
        // The strong password's prefix, with other suffixes only (and padding).
        try "0123456789ABCDEF0123456789ABCDEF012:3\r\n\(String(repeating: "0", count: 35)):0\r\n".write(
            toFile: directory + "/\(digest.prefix(5)).txt", atomically: true, encoding: .utf8)
        let streams = try fixture.run(typing: CommandFixture.unlock) {
            try AuditCredentials(breachSource: directory).run(in: $0)
        }
        #expect(streams.output.contains("Audited 1 password") && streams.output.contains("Nothing found."))
        // The same prefix file, now listing it: breached.
        try "\(digest.dropFirst(5)):12\r\n".write(
            toFile: directory + "/\(digest.prefix(5)).txt", atomically: true, encoding: .utf8)
        let found = try fixture.failure(typing: CommandFixture.unlock) {
            try AuditCredentials(breachSource: directory, format: .json).run(in: $0)
        }
        #expect(found.failure?.code == .auditFindings)
        #expect(try Self.kinds(found.streams.output)["Strong"] == ["breached"])
    }

    @Test("a missing --hibp path is a usage error (64) and a broken file wrong input (65), both before any unlock")
    func wrongFiles() throws {
        let fixture = try Self.fixture()
        // No terminal to type on: an unlock would be 75.
        let missing = try fixture.failure { try AuditCredentials(breachSource: fixture.root + "/nope.txt").run(in: $0) }
        #expect(missing.failure?.code == .usage)
        #expect(missing.failure?.message.contains("nope.txt") == true)
        let broken = fixture.root + "/broken.txt"
        try "this is not a breach file\n".write(toFile: broken, atomically: true, encoding: .utf8)
        let refused = try fixture.failure { try AuditCredentials(breachSource: broken).run(in: $0) }
        #expect(refused.failure?.code == .corrupt)
        #expect(
            refused.failure?.message.contains("line 1 is not HASH:COUNT") == true,
            "\(String(describing: refused.failure))")
    }

    @Test("through an unlocked agent: the report comes from it, with no master password here")
    func throughTheAgent() throws {
        let fixture = try AgentInProcessTests.Fixture()
        #expect(try fixture.unlock() == .done)
        var caught: CommandFailure?
        do {
            try AuditCredentials(breachSource: nil, format: .json).run(in: fixture.context)
        } catch let failure as CommandFailure {
            caught = failure
        }
        #expect(caught?.code == .auditFindings, "gh-secret is weak")
        #expect(
            fixture.streams.output.contains("\"title\":\"GitHub\"") && !fixture.streams.output.contains("gh-secret"))
        guard let answer = try fixture.client.ask(.audit(vault: fixture.context.vaultPath, options: AuditOptions())),
            case .audit(let report) = answer.body
        else {
            Issue.record("the agent did not answer an audit")
            return
        }
        #expect(report.audited == 1 && report.credentials.first?.findings.first?.kind == .weak)
    }

    @Test(
        "the picker marks weak, reused and breached rows (the settings' pwned_passwords), and the detail screen says why"
    )
    func picker() throws {
        let fixture = try Self.fixture()
        let file = try Self.breachFile(in: fixture.root)
        try "pwned_passwords = \"\(file)\"\n".write(
            toFile: fixture.root + "/config/pwtui/config.toml", atomically: true, encoding: .utf8)
        let vault = try fixture.vault()
        let terminal = GridTerminal(script: [])
        terminal.enqueue(typing: "Weak")
        terminal.enqueue(.key(.right))
        terminal.enqueue(.key(.escape))
        terminal.enqueue(.key(.escape))
        try fixture.run { context in
            let flow = Picker.flow(
                on: terminal, vaultPath: context.vaultPath, requests: [], context: context, agentField: nil)
            guard case .cancelled = try flow.run(unlocked: vault) else {
                Issue.record("the picker did not end with Esc")
                return
            }
        }
        let frames = terminal.frames.map(\.text)
        guard let list = frames.first else {
            Issue.record("nothing drawn")
            return
        }
        let rows = list.split(separator: "\n").map(String.init)
        #expect(rows.contains { $0.contains("Weak") && $0.contains("[weak, breached]") }, "\(list)")
        #expect(rows.contains { $0.contains("Reuse A") && $0.contains("[reused]") }, "\(list)")
        #expect(rows.contains { $0.contains("Strong") && !$0.contains("[") }, "\(list)")
        guard let detail = frames.first(where: { $0.contains("Audit") }) else {
            Issue.record("no detail screen with the findings: \(frames.last ?? "")")
            return
        }
        #expect(detail.contains("pwtui — Weak") && detail.contains("weak: about"), "\(detail)")
        #expect(detail.contains("breached: seen 42 times"), "\(detail)")
        Self.expectNoSecret(frames.joined())
    }

    @Test("before unlocking, an unlocked agent's audit marks the preview, after its first frame")
    func previewMarkedByTheAgent() throws {
        let fixture = try AgentInProcessTests.Fixture()
        #expect(try fixture.unlock() == .done)  // also writes the identity store the preview comes from
        let terminal = GridTerminal(script: [.key(.escape)])
        let flow = Picker.flow(
            on: terminal, vaultPath: fixture.context.vaultPath, requests: [], context: fixture.context,
            agentField: .password)
        guard case .cancelled = try flow.run() else {
            Issue.record("the picker did not end with Esc")
            return
        }
        let frames = terminal.frames.map(\.text)
        #expect(frames.count >= 2, "\(frames)")
        #expect(frames.first.map { $0.contains("GitHub") && !$0.contains("[weak]") } == true, "\(frames)")
        #expect(frames.last.map { $0.contains("GitHub") && $0.contains("[weak]") } == true, "\(frames)")
        #expect(frames.allSatisfy { !$0.contains("Master password") && !$0.contains("gh-secret") })
    }
}
