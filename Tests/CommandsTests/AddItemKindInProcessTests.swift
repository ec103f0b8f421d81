// `pwtui add --kind note|card|identity` (issue 38): items that only imports made, made by hand as
// imports make them: a title is enough, a note's text and a card's number from stdin (all of
// it) into a secret field, the rest as text fields; `list` marks the kind as the picker does.

import Foundation
@testable import Commands
import Testing
import VaultModel

@Suite("add --kind, in process")
struct AddItemKindInProcessTests {
    static func add(
        _ kind: ItemKind, title: String, input: String = "", fields: [(String, String)] = [], in fixture: CommandFixture
    ) throws {
        try fixture.run(input: input, typing: CommandFixture.unlock) {
            var add = AddCredential(services: [], username: "", title: title, notes: "", rank: 0, generate: false)
            add.kind = kind
            add.textFields = fields.map { CredentialChange.FieldEdit(name: $0.0, text: $0.1) }
            try add.run(in: $0)
        }
    }

    static func get(_ title: String, field: String, in fixture: CommandFixture) throws -> String {
        try fixture.run(typing: CommandFixture.unlock) {
            try GetCredential(query: CredentialQuery(title: title), field: .named(field), noInteraction: false).run(
                in: $0)
        }.output
    }

    @Test("a secure note: its text, every line, from stdin into the secret field 'note'; no password")
    func note() throws {
        let fixture = try CommandFixture()
        try Self.add(.note, title: "Recovery codes", input: "1111-2222\n3333-4444\n", in: fixture)
        let item = try #require(try fixture.vault().contents.credentials.first)
        #expect(item.kind == .note && item.services.isEmpty && item.title == "Recovery codes")
        #expect(item.field(named: "note")?.isSecret == true)
        #expect(try Self.get("Recovery codes", field: "note", in: fixture) == "1111-2222\n3333-4444\n")
    }

    @Test("a card: its number from stdin (secret), cardholder and expiry as text fields")
    func card() throws {
        let fixture = try CommandFixture()
        try Self.add(
            .card, title: "Visa", input: "4111111111111111\n",
            fields: [("cardholder", "Kim Doe"), ("expiry", "12/2029")],
            in: fixture)
        let item = try #require(try fixture.vault().contents.credentials.first)
        #expect(item.kind == .card)
        #expect(item.field(named: "number")?.isSecret == true)
        #expect(item.field(named: "cardholder")?.text == "Kim Doe")
        #expect(item.field(named: "expiry")?.text == "12/2029")
        #expect(try Self.get("Visa", field: "number", in: fixture) == "4111111111111111\n")
    }

    @Test("an identity: a title is enough; list marks every kind, the table and JSON")
    func identityAndListMarks() throws {
        let fixture = try CommandFixture([("mail.example", "kim", "pw", "Mail")])
        try Self.add(.identity, title: "Me", fields: [("first name", "Kim")], in: fixture)
        try Self.add(.note, title: "Empty note", in: fixture)
        let table = try fixture.run(typing: CommandFixture.unlock) {
            try ListCredentials(services: [], format: .table, all: false).run(in: $0)
        }.output
        #expect(table.contains("[identity]") && table.contains("[note]"), "\(table)")
        #expect(!table.contains("(no site)"), "\(table)")
        let json = try fixture.run(typing: CommandFixture.unlock) {
            try ListCredentials(services: [], format: .json, all: false).run(in: $0)
        }.output
        #expect(json.contains("\"kind\":\"identity\"") && json.contains("\"kind\":\"note\""), "\(json)")
        let note = try #require(try fixture.vault().contents.credentials.first { $0.title == "Empty note" })
        #expect(note.fields.isEmpty, "nothing piped: no note text yet")
    }
}
