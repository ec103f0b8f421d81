import Foundation
import PwtuiTestSupport
import Testing
import VaultCrypto
@testable import VaultModel

/// The Secret Service's items as vault items (issue 40): what `KeyringRequest` makes of a
/// program's create, replace, new secret, new attributes and delete, and that a vault keeps them
/// through its journal and a snapshot exactly.
@Suite("Keyring items")
struct KeyringItemTests {
    let temporary = TemporaryDirectory()
    let environment = VaultEnvironment(derivation: MemoizingDerivation())

    static let chromium: [String: String] = [
        "application": "chrome", "xdg:schema": "chrome_libsecret_os_crypt_password_v2",
    ]

    func create(
        _ vault: Vault, _ label: String, _ attributes: [String: String], secret: [UInt8], replace: Bool = false,
        contentType: String = "text/plain"
    ) throws -> (id: String, replaced: Bool) {
        let request = KeyringRequest.create(
            label: label, attributes: attributes, contentType: contentType, replace: replace,
            creator: KeyringCaller(pid: nil))
        guard
            case .created(let id, let replaced, _) = try request.apply(
                to: vault, secret: try SecureBytes(copying: secret), creator: "chromium")
        else { throw VaultError.invalidRequest("not created") }
        return (id, replaced)
    }

    func secret(_ vault: Vault, _ id: String) throws -> [UInt8] {
        let item = try KeyringRequest.item(id, in: vault)
        return try KeyringItem.secret(of: item, in: vault.contents).withUnsafeBytes { Array($0) }
    }

    @Test("an item is a credential of its own kind: label as title, attributes and creator as fields, no service")
    func created() throws {
        let vault = try createVault(in: temporary, environment: environment)
        let (id, replaced) = try create(vault, "Chromium Safe Storage", Self.chromium, secret: Array("k3y".utf8))
        #expect(!replaced && id.count == 32)
        let item = try KeyringRequest.item(id, in: vault)
        #expect(item.kind == .keyring && item.title == "Chromium Safe Storage" && item.services.isEmpty)
        #expect(KeyringItem.attributes(of: item) == Self.chromium)
        #expect(KeyringItem.creator(of: item) == "chromium")
        #expect(KeyringItem.contentType(of: item) == "text/plain" && item.field(named: "keyring content type") == nil)
        #expect(try secret(vault, id) == Array("k3y".utf8))
        #expect(KeyringItemSummary(item).id == id)
        // A login is no keyring item, by whatever id.
        let login = try vault.add(services: [], username: "", secret: try secure("x"), title: "Wi-Fi")
        #expect(throws: VaultError.self) {
            try KeyringRequest.item(String(login.id.uuidString.lowercased().filter { $0 != "-" }), in: vault)
        }
        #expect(throws: VaultError.self) { try KeyringRequest.item("not-an-id", in: vault) }
    }

    @Test("search selects the items whose attributes include every pair asked, and only keyring items")
    func search() throws {
        let vault = try createVault(in: temporary, environment: environment)
        let a = try create(vault, "a", ["service": "gh", "user": "alice"], secret: Array("1".utf8)).id
        let b = try create(vault, "b", ["service": "gh", "user": "bob"], secret: Array("2".utf8)).id
        _ = try vault.add(services: [], username: "", secret: try secure("3"), title: "attribute service")
        func ids(_ query: [String: String]) -> [String] {
            KeyringRequest.items(in: vault.contents, matching: query).map(KeyringItem.id(of:))
        }
        #expect(ids([:]) == [a, b])
        #expect(ids(["service": "gh"]) == [a, b])
        #expect(ids(["service": "gh", "user": "bob"]) == [b])
        #expect(ids(["Service": "gh"]).isEmpty, "attribute names are exact, as the spec has them")
        #expect(ids(["service": "GH"]).isEmpty)
    }

    @Test("replace: the item with exactly these attributes gets the new secret (the old kept) and label")
    func replace() throws {
        let vault = try createVault(in: temporary, environment: environment)
        let first = try create(vault, "token", ["service": "pypi"], secret: Array("old".utf8)).id
        let again = try create(vault, "token v2", ["service": "pypi"], secret: Array("new".utf8), replace: true)
        #expect(again.id == first && again.replaced)
        let item = try KeyringRequest.item(first, in: vault)
        #expect(item.title == "token v2" && item.history.count == 1)
        #expect(try secret(vault, first) == Array("new".utf8))
        // Not exactly the same attributes, or no replace: a new item.
        #expect(try create(vault, "t", ["service": "pypi", "user": "x"], secret: [1], replace: true).replaced == false)
        // Nor an item with more attributes than these: the one with exactly them.
        #expect(try create(vault, "token v3", ["service": "pypi"], secret: [3], replace: true).id == first)
        #expect(try create(vault, "t", ["service": "pypi"], secret: [2]).id != first)
        // The answer carries the item as it is now.
        let answer = try KeyringRequest.create(
            label: "token v4", attributes: ["service": "pypi", "user": "x"], contentType: "text/plain", replace: true,
            creator: KeyringCaller(pid: nil)
        ).apply(to: vault, secret: try secure("4"), creator: nil)
        guard case .created(let id, true, let summary) = answer else {
            Issue.record("not replaced: \(answer)")
            return
        }
        #expect(summary == KeyringItemSummary(try KeyringRequest.item(id, in: vault)) && summary.label == "token v4")
    }

    @Test("bytes that are not UTF-8 text are kept as hex digits and come back exactly; text is kept as it is")
    func binarySecrets() throws {
        let vault = try createVault(in: temporary, environment: environment)
        let binary: [UInt8] = [0, 0xFF, 0xC0, 0x80, 0x41]
        let id = try create(vault, "bin", ["k": "v"], secret: binary, contentType: "application/octet-stream").id
        var item = try KeyringRequest.item(id, in: vault)
        #expect(item.field(named: KeyringItem.encodingField)?.text == "hex")
        #expect(vault.withSecret(item.secret) { Array($0) } == Array("00ffc08041".utf8))
        #expect(try secret(vault, id) == binary)
        #expect(KeyringItem.contentType(of: item) == "application/octet-stream")
        // A text secret after it: stored as it is, the encoding and content type fields gone.
        _ = try KeyringRequest.setSecret(id: id, contentType: "text/plain").apply(
            to: vault, secret: try secure("plain é"), creator: nil)
        item = try KeyringRequest.item(id, in: vault)
        #expect(
            item.field(named: KeyringItem.encodingField) == nil
                && item.field(named: KeyringItem.contentTypeField) == nil)
        #expect(try secret(vault, id) == Array("plain é".utf8))
        #expect(try create(vault, "empty", [:], secret: []).replaced == false)
    }

    @Test("isUTF8 agrees with Swift's own decoding on 20,000 generated byte strings")
    func utf8Property() {
        var generator = SeededGenerator(seed: 40)
        // Bytes around the boundaries that matter: ASCII, continuation bytes, every lead byte,
        // the surrogates' and U+10FFFF's neighbourhoods.
        let interesting: [UInt8] = [
            0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF,
            0xE0, 0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xFF,
        ]
        for _ in 0 ..< 20_000 {
            let length = Int.random(in: 0 ... 8, using: &generator)
            let bytes = (0 ..< length).map { _ in
                Bool.random(using: &generator)
                    ? interesting.randomElement(using: &generator)! : UInt8.random(in: 0 ... 255, using: &generator)
            }
            let swift = String(validating: bytes, as: UTF8.self) != nil
            #expect(bytes.withUnsafeBytes { KeyringItem.isUTF8($0) } == swift, "\(bytes)")
        }
    }

    @Test("attributes set exactly: changed, removed and renamed in case; bounded; two names equal but for case refused")
    func attributes() throws {
        let vault = try createVault(in: temporary, environment: environment)
        let id = try create(vault, "x", ["a": "1", "b": "2", "c": "3"], secret: [65]).id
        _ = try KeyringRequest.update(id: id, label: "", attributes: ["a": "1", "B": "two", "d": "4"]).apply(
            to: vault, secret: try secure(""), creator: nil)
        let item = try KeyringRequest.item(id, in: vault)
        #expect(KeyringItem.attributes(of: item) == ["a": "1", "B": "two", "d": "4"])
        #expect(item.title == KeyringItem.untitledLabel)
        #expect(throws: VaultError.self) {
            try KeyringRequest.update(id: id, label: nil, attributes: ["k": "1", "K": "2"]).apply(
                to: vault, secret: try secure(""), creator: nil)
        }
        let many = Dictionary(uniqueKeysWithValues: (0 ... KeyringItem.maximumAttributes).map { ("n\($0)", "v") })
        #expect(throws: VaultError.self) { try create(vault, "many", many, secret: [65]) }
        let long = String(repeating: "x", count: KeyringItem.attributeBytes + 1)
        #expect(throws: VaultError.self) { try create(vault, "long", ["k": long], secret: [65]) }
        #expect(KeyringItem.attributes(of: try KeyringRequest.item(id, in: vault)) == ["a": "1", "B": "two", "d": "4"])
    }

    @Test("items, their attributes and secrets survive the journal, a reopen and a snapshot; a delete too")
    func persisted() throws {
        let vault = try createVault(in: temporary, environment: environment)
        try vault.save()
        let kept = try create(vault, "kept", Self.chromium, secret: [0, 1, 2]).id
        let gone = try create(vault, "gone", ["x": "y"], secret: Array("bye".utf8)).id
        #expect(try vault.appendChanges())
        _ = try KeyringRequest.delete(id: gone).apply(to: vault, secret: try secure(""), creator: nil)
        #expect(try vault.appendChanges())
        let reopened = try Vault.open(at: vault.path, password: try secure(testPassword), environment: environment)
        #expect(reopened.journal.sequence == 2, "two records after the snapshot")
        #expect(KeyringRequest.items(in: reopened.contents, matching: [:]).map(KeyringItem.id(of:)) == [kept])
        #expect(try secret(reopened, kept) == [0, 1, 2])
        #expect(KeyringItem.attributes(of: try KeyringRequest.item(kept, in: reopened)) == Self.chromium)
        try reopened.compact()
        let compacted = try Vault.open(at: vault.path, password: try secure(testPassword), environment: environment)
        #expect(try secret(compacted, kept) == [0, 1, 2])
        #expect(KeyringItem.creator(of: try KeyringRequest.item(kept, in: compacted)) == "chromium")
    }

    @Test(
        "the identity store keeps each keyring item's attribute digests, not its attributes, and a search matches them")
    func lockedDigests() throws {
        let vault = try createVault(in: temporary, environment: environment)
        try vault.save()
        let id = try create(vault, "Chromium Safe Storage", Self.chromium, secret: Array("k".utf8)).id
        _ = try vault.add(services: [], username: "", secret: try secure("x"), title: "a note")
        let path = try temporary.freshPath("identities")
        try IdentityStore(vault: vault).save(to: path)
        let bytes = try #require(FileManager.default.contents(atPath: path))
        #expect(bytes.range(of: Data("chrome_libsecret_os_crypt_password_v2".utf8)) == nil, "no attribute in clear")
        let store = try #require(IdentityStore.load(from: path))
        #expect(store.keyringItems.count == 1 && KeyringItem.id(of: store.keyringItems[0].id) == id)
        let item = store.keyringItems[0]
        #expect(item.matches([:], vaultID: store.vaultID))
        #expect(item.matches(["application": "chrome"], vaultID: store.vaultID))
        #expect(item.matches(Self.chromium, vaultID: store.vaultID))
        #expect(!item.matches(["application": "chromium"], vaultID: store.vaultID))
        #expect(!item.matches(["application": "chrome"], vaultID: Array(repeating: 0, count: 16)), "another vault's")
        #expect(!item.matches(["xdg:schema": "chrome"], vaultID: store.vaultID), "a value under another name")
    }

    @Test("a label no title can be (empty, control characters, too long) is kept exactly beside a printable title")
    func labels() throws {
        let vault = try createVault(in: temporary, environment: environment)
        let keyring = "Password for 'a\tb\u{0B}c' on 'svc\u{0C}'"
        for (index, label) in [keyring, "", String(repeating: "é", count: Limits.titleBytes)].enumerated() {
            let id = try create(vault, label, ["k": "\(index)"], secret: [65]).id
            let item = try KeyringRequest.item(id, in: vault)
            #expect(KeyringItem.label(of: item) == label && KeyringItemSummary(item).label == label)
            #expect(item.title != label && item.field(named: KeyringItem.labelField)?.text == label)
            #expect(!item.title.unicodeScalars.contains { $0.properties.generalCategory == .control })
            #expect(item.title.utf8.count <= Limits.titleBytes)
        }
        let title = KeyringItem.title(for: keyring)
        #expect(title.hasPrefix("Password for 'a\\t") && !title.contains("\t"), "\(title)")
        // A label a title can be is the title, with no field; relabelled, the field goes.
        let id = try create(vault, keyring, ["k": "v"], secret: [65]).id
        _ = try KeyringRequest.update(id: id, label: "Plain", attributes: nil).apply(
            to: vault, secret: try secure(""), creator: nil)
        let item = try KeyringRequest.item(id, in: vault)
        #expect(item.title == "Plain" && item.field(named: KeyringItem.labelField) == nil)
    }
}
