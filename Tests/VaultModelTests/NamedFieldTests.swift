import Foundation
import Platform
import PwtuiTestSupport
import ServiceMatching
import Testing
import VaultCrypto
@testable import VaultModel

/// Named fields (format 1.3): text or secret, a secret one in the arena with its own history,
/// kept through the file, replayed onto another process's save, and merged by a reconciliation.
@Suite("Named fields")
struct NamedFieldTests {
    let temporary = TemporaryDirectory()
    let environment = VaultEnvironment(derivation: MemoizingDerivation())

    func text(_ vault: Vault, _ reference: SecretReference?) -> String? {
        reference.map { vault.withSecret($0) { String(decoding: $0, as: UTF8.self) } }
    }

    @Test("text and secret fields survive the file; a replaced secret value goes to the field's history")
    func kept() throws {
        let vault = try createVault(in: temporary, environment: environment)
        let item = try vault.add(
            services: [try ServiceIdentifier("bank.example")], username: "kim", secret: try secure("pw"))
        try vault.setField(of: item.id, name: "PIN", text: nil, secret: try secure("1234"))
        try vault.setField(of: item.id, name: "branch", text: "North", secret: try secure(""))
        try vault.setField(of: item.id, name: "pin", text: nil, secret: try secure("5678"))
        try vault.save()
        let reopened = try Vault.open(at: vault.path, password: try secure(testPassword), environment: environment)
        let stored = try #require(reopened.contents.credential(withID: item.id))
        #expect(stored.fields.map(\.name) == ["PIN", "branch"])
        let pin = try #require(stored.field(named: "pin"))
        #expect(pin.isSecret && text(reopened, pin.secret) == "5678")
        #expect(pin.history.map { text(reopened, $0.secret) } == ["1234"])
        #expect(stored.field(named: "Branch")?.text == "North")
        try reopened.removeField(of: item.id, name: "branch")
        #expect(throws: VaultError.self) { try reopened.removeField(of: item.id, name: "branch") }
        #expect(try reopened.credential(id: item.id.uuidString).fields.count == 1)
    }

    @Test("a field set while another process saved is replayed onto its version, the secret in the right arena")
    func replayed() throws {
        let vault = try createVault(in: temporary, environment: environment)
        let item = try vault.add(
            services: [try ServiceIdentifier("a.example")], username: "kim", secret: try secure("pw"))
        try vault.save()
        let other = try Vault.open(at: vault.path, password: try secure(testPassword), environment: environment)
        try other.add(
            services: [try ServiceIdentifier("b.example")], username: "kim",
            secret: try secure("a-longer-password-to-shift-offsets"))
        try other.save()
        try vault.setField(of: item.id, name: "secret key", text: nil, secret: try secure("A3-XYZ"))
        try vault.save()
        let reopened = try Vault.open(at: vault.path, password: try secure(testPassword), environment: environment)
        #expect(reopened.contents.credentials.count == 2)
        let stored = try #require(reopened.contents.credential(withID: item.id))
        #expect(text(reopened, stored.field(named: "secret key")?.secret) == "A3-XYZ")
    }

    @Test("a reconciliation takes the fields of the side that changed them, secrets copied")
    func reconciled() throws {
        let vault = try createVault(in: temporary, environment: environment)
        let item = try vault.add(
            services: [try ServiceIdentifier("a.example")], username: "kim", secret: try secure("pw"))
        try vault.save()
        let base = try Vault.open(at: vault.path, password: try secure(testPassword), environment: environment).contents
        try vault.setField(of: item.id, name: "code", text: nil, secret: try secure("c0de"))
        let ours = vault.contents
        let (merged, _) = try VaultReconcile.reconcile(base: base, ours: base, theirs: ours)
        let result = try #require(merged.credential(withID: item.id))
        #expect(
            result.field(named: "code").flatMap(\.secret).map {
                merged.secrets.withBytes(of: $0) { String(decoding: $0, as: UTF8.self) }
            } == "c0de")
    }

    @Test(
        "an adopted credential (an import) saved after another process saved keeps its TOTP key and secret fields: they move to the merged arena"
    )
    func adoptedReplayed() throws {
        let vault = try createVault(in: temporary, environment: environment)
        try vault.save()
        let other = try Vault.open(at: vault.path, password: try secure(testPassword), environment: environment)
        try other.add(
            services: [try ServiceIdentifier("b.example")], username: "kim",
            secret: try secure("shifts-every-offset-of-the-arena"))
        try other.save()
        let source = try SecretArena()
        func stored(_ text: String) throws -> SecretReference {
            try source.store(try secure(text))
        }
        let now = Timestamp(millisecondsSince1970: 1_700_000_000_000)
        let password = try stored("pw")
        let key = OneTimeKey(parameters: .standard, key: try stored("12345678901234567890"))
        let pin = NamedField(name: "PIN", value: .secret(try stored("4321")))
        let imported = Credential(
            id: UUID(), title: "Imported", services: [try ServiceIdentifier("a.example")], username: "kim",
            secret: password, created: now, modified: now, totp: key, fields: [pin])
        let adopted = try vault.adopt(imported, secretsFrom: source)
        try vault.save()
        let reopened = try Vault.open(at: vault.path, password: try secure(testPassword), environment: environment)
        let stored = try #require(reopened.contents.credential(withID: adopted.id))
        #expect(text(reopened, stored.totp?.key) == "12345678901234567890")
        #expect(text(reopened, stored.field(named: "PIN")?.secret) == "4321")
        #expect(text(reopened, stored.secret) == "pw")
    }
}
