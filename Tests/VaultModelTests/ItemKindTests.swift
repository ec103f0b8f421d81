import Foundation
import PwtuiTestSupport
import Testing
@testable import VaultModel

/// A note, card or identity keeps its kind through the vault file and the identity store.
@Suite("Item kinds")
struct ItemKindTests {
    let temporary = TemporaryDirectory()
    let environment = VaultEnvironment(derivation: MemoizingDerivation())

    @Test("the kind survives a save and an open, and the identity store (which the picker lists from)")
    func kept() throws {
        let vault = try createVault(in: temporary, environment: environment)
        var ids: [ItemKind: UUID] = [:]
        for kind in ItemKind.allCases {
            let item = try vault.add(services: [], username: "", secret: try secure(""), title: "item \(kind.rawValue)")
            try vault.update(item.id) { $0.kind = kind }
            ids[kind] = item.id
        }
        try vault.save()
        let reopened = try Vault.open(at: vault.path, password: try secure(testPassword), environment: environment)
        for (kind, id) in ids { #expect(reopened.contents.credential(withID: id)?.kind == kind) }
        let path = try temporary.freshPath("identities")
        try IdentityStore(vault: reopened).save(to: path)
        let store = try #require(IdentityStore.load(from: path))
        for (kind, id) in ids {
            #expect(try store.identities.first { $0.id == id }?.secretlessCredential().kind == kind)
        }
    }
}
