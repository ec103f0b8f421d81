import Foundation
import Testing
@testable import Interchange
import VaultModel

/// Secure notes, cards and identities from other managers become items of their kind with
/// fields (numbers and codes secret), never notes holding a secret; samples written here in the
/// shapes of published export test data (Samples/shapes/README.md).
@Suite("Notes, cards and identities")
struct ItemKindImportTests {
    @Test(
        "Bitwarden JSON: a secure note (its text secret), a card (number and code secret), an identity; an empty card skipped"
    )
    func bitwardenItems() throws {
        let plan = try ImportSamples.plan(try ImportSamples.read("shapes/bitwarden-items.json"))
        #expect(plan.addedCount == 3)
        let note = try #require(plan.added("Safe combination"))
        #expect(note.kind == .note)
        #expect(note.notes.isEmpty)
        #expect(note.field(named: "note")?.secret.map { plan.secret($0) } == "left 12, right 34\nleft 56")
        let card = try #require(plan.added("Visa, everyday"))
        #expect(card.kind == .card)
        #expect(card.field(named: "number")?.secret.map { plan.secret($0) } == "4111111111111111")
        #expect(card.field(named: "security code")?.secret.map { plan.secret($0) } == "123")
        #expect(card.field(named: "PIN")?.isSecret == true)
        #expect(card.field(named: "cardholder")?.text == "Alice Example")
        #expect(card.field(named: "brand")?.text == "Visa")
        #expect(card.field(named: "expiry")?.text == "7/2029")
        #expect(card.notes == "call the bank if lost")
        #expect(card.services.isEmpty)
        let me = try #require(plan.added("Me"))
        #expect(me.kind == .identity)
        #expect(me.field(named: "social security number")?.isSecret == true)
        #expect(me.field(named: "passport number")?.secret.map { plan.secret($0) } == "P1234567")
        #expect(me.field(named: "first name")?.text == "Alice")
        #expect(me.field(named: "middle name") == nil, "null members are left out")
        for item in [note, card, me] {
            #expect(!item.notes.contains("4111") && !item.notes.contains("123-45") && !item.notes.contains("left 12"))
        }
        #expect(plan.steps.contains { $0.action == .notCredential("an empty card") })
    }

    @Test("LastPass CSV: http://sn rows become a card, an identity and a note, never notes with a card number")
    func lastPassNotes() throws {
        let batch = try ImportSamples.read("shapes/lastpass-notes.csv")
        #expect(batch.format == .lastPassCSV)
        let plan = try ImportSamples.plan(batch)
        #expect(plan.addedCount == 4)
        let card = try #require(plan.added("Mastercard"))
        #expect(card.kind == .card)
        #expect(card.services.isEmpty)
        #expect(card.field(named: "number")?.secret.map { plan.secret($0) } == "5555444433331111")
        #expect(card.field(named: "security code")?.secret.map { plan.secret($0) } == "321")
        #expect(card.field(named: "cardholder")?.text == "Alice Example")
        #expect(card.field(named: "brand")?.text == "Mastercard")
        #expect(card.field(named: "expiry")?.text == "March,2030")
        #expect(card.field(named: "language") == nil)
        #expect(card.notes.hasPrefix("travel card\nsecond line"))
        #expect(!card.notes.contains("5555") && !card.notes.contains("321"))
        let address = try #require(plan.added("Home address"))
        #expect(address.kind == .identity)
        #expect(address.field(named: "first name")?.text == "Bob")
        let house = try #require(plan.added("House"))
        #expect(house.kind == .note)
        #expect(house.notes.isEmpty)
        #expect(house.field(named: "note")?.secret.map { plan.secret($0) } == "door code 4455\nalarm 9911")
        #expect(plan.added("Example")?.kind == .login)
    }

    @Test("Bitwarden CSV: a note row is a note item, its text secret")
    func bitwardenCSVNote() throws {
        let plan = try ImportSamples.plan(try ImportSamples.read("bitwarden.csv"))
        let note = try #require(plan.added("My note"))
        #expect(note.kind == .note)
        #expect(note.notes.isEmpty)
        #expect(note.field(named: "note")?.secret.map { plan.secret($0) } == "secret note text")
    }
}
