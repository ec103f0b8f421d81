import Foundation
import PwtuiTestSupport
import Testing
@testable import Interchange
import VaultModel

/// 1Password's .1pux: a zip archive (written here by python3's zipfile, deflated or stored) whose
/// export.data is JSON in the shape of 1Password 8's exports (Bitwarden's and Proton Pass's
/// importer test data describe it): logins with TOTP and hidden fields, a card, a secure note,
/// an identity, a trashed item.
@Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"), "needs python3"))
struct OnePasswordPuxTests {
    let directory = TemporaryDirectory("1pux")

    static let exportData = #"""
        {"accounts": [{"attrs": {"accountName": "Alice", "name": "Alice", "email": "alice@example.org", "uuid": "ACC1", "domain": "https://my.1password.com/"},
          "vaults": [{"attrs": {"uuid": "v1", "desc": "", "name": "Personal", "type": "P"}, "items": [
            {"uuid": "i1", "favIndex": 0, "createdAt": 1700000000, "updatedAt": 1700000100, "state": "active", "categoryUuid": "001",
             "details": {"loginFields": [
                 {"value": "alice", "id": "", "name": "username", "fieldType": "T", "designation": "username"},
                 {"value": "gh-pass \"1\"", "id": "", "name": "password", "fieldType": "P", "designation": "password"}],
               "notesPlain": "work account",
               "sections": [{"title": "", "name": "add more", "fields": [
                 {"title": "one-time password", "id": "TOTP_abc", "value": {"totp": "otpauth://totp/GitHub:alice?secret=JBSWY3DPEHPK3PXP&issuer=GitHub"}, "indexAtSource": 0, "guarded": false, "multiline": false},
                 {"title": "recovery code", "id": "r1", "value": {"concealed": "rc-1234"}, "guarded": false},
                 {"title": "team", "id": "t1", "value": {"string": "platform"}, "guarded": false}]}],
               "passwordHistory": [{"value": "gh-old", "time": 1690000000}]},
             "overview": {"subtitle": "alice", "urls": [{"label": "", "url": "https://github.com/login"}, {"label": "gist", "url": "https://gist.github.com"}],
               "title": "GitHub", "url": "https://github.com/login", "tags": ["work", "dev"]}},
            {"uuid": "i2", "favIndex": 0, "createdAt": 1700000000, "updatedAt": 1700000000, "state": "active", "categoryUuid": "002",
             "details": {"loginFields": [], "notesPlain": "parents' card", "sections": [{"title": "", "fields": [
                 {"title": "cardholder name", "id": "cardholder", "value": {"string": "Alice Example"}},
                 {"title": "type", "id": "type", "value": {"creditCardType": "visa"}},
                 {"title": "number", "id": "ccnum", "value": {"creditCardNumber": "4111111111111111"}},
                 {"title": "verification number", "id": "cvv", "value": {"concealed": "123"}},
                 {"title": "expiry date", "id": "expiry", "value": {"monthYear": 202709}},
                 {"title": "PIN", "id": "pin", "value": {"concealed": "9876"}}]}], "passwordHistory": []},
             "overview": {"subtitle": "4111 ****", "title": "Visa", "url": ""}},
            {"uuid": "i3", "favIndex": 0, "createdAt": 1700000000, "updatedAt": 1700000000, "state": "active", "categoryUuid": "003",
             "details": {"loginFields": [], "notesPlain": "safe: 12-34-56", "sections": [], "passwordHistory": []},
             "overview": {"subtitle": "", "title": "Safe", "url": ""}},
            {"item": {"uuid": "i4", "favIndex": 0, "createdAt": 1700000000, "updatedAt": 1700000000, "trashed": false, "categoryUuid": "004",
             "details": {"loginFields": [], "notesPlain": "", "sections": [{"title": "Identification", "name": "name", "fields": [
                 {"title": "first name", "id": "firstname", "value": {"string": "Alice"}},
                 {"title": "birth date", "id": "birthdate", "value": {"date": 631152000}}]},
               {"title": "Address", "name": "address", "fields": [
                 {"title": "address", "id": "address", "value": {"address": {"street": "1 Main St", "city": "Dublin", "country": "ie", "zip": "D01", "state": ""}}}]}],
               "passwordHistory": []},
             "overview": {"subtitle": "", "title": "Me", "url": ""}}},
            {"uuid": "i5", "favIndex": 0, "createdAt": 1700000000, "updatedAt": 1700000000, "state": "trashed", "categoryUuid": "001",
             "details": {"loginFields": [{"value": "x", "id": "", "name": "password", "fieldType": "P", "designation": "password"}], "sections": []},
             "overview": {"title": "Old", "url": "https://old.example"}}
          ]}]}]}
        """#

    /// A .1pux of `data` (as export.data, beside the files 1Password writes next to it), `method` deflated or stored.
    func archive(_ data: String?, stored: Bool = false) throws -> String {
        let json = try directory.freshPath("export.data")
        try Data((data ?? "{}").utf8).write(to: URL(fileURLWithPath: json))
        let path = try directory.freshPath("export.1pux")
        let script = """
            import sys, zipfile
            z = zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_STORED if sys.argv[3] == 'stored' else zipfile.ZIP_DEFLATED)
            z.writestr('export.attributes', '{"version": 3, "description": "1Password Unencrypted Export"}')
            if sys.argv[4] == 'yes': z.write(sys.argv[2], 'export.data')
            z.writestr('files/ignored.txt', 'an attachment')
            z.close()
            """
        let python = try ProgramOutput(
            "/usr/bin/python3", ["-c", script, path, json, stored ? "stored" : "deflated", data == nil ? "no" : "yes"])
        #expect(python.ending.succeeded)
        return path
    }

    @Test("times past what milliseconds can count are dropped, not a crash: the entry is still imported")
    func timesOutOfRange() throws {
        // 2^63 - 1 seconds: times 1000 overflowed Int64 and stopped `pwtui import`.
        let data = Self.exportData.replacingOccurrences(
            of: #""createdAt": 1700000000, "updatedAt": 1700000100"#,
            with: #""createdAt": 9223372036854775807, "updatedAt": 9223372036854776"#)
        #expect(data != Self.exportData)
        let batch = try ImportReader.read(try archive(data))
        let github = try #require(batch.entries.first { $0.title == "GitHub" })
        #expect(github.created == nil && github.modified == nil)
    }

    @Test(
        "logins (TOTP, hidden fields, history, several URLs), a card, a secure note and an identity; the trash listed",
        arguments: [false, true])
    func items(stored: Bool) throws {
        let batch = try ImportReader.read(try archive(Self.exportData, stored: stored))
        #expect(batch.format == .onePasswordPux)
        let plan = try ImportSamples.plan(batch)
        #expect(plan.addedCount == 4)
        let github = try #require(plan.added("GitHub"))
        #expect(github.username == "alice")
        #expect(plan.secret(github.secret) == "gh-pass \"1\"")
        #expect(github.services.map(\.text) == ["https://github.com/login", "https://gist.github.com"])
        #expect(github.totp != nil)
        #expect(github.field(named: "recovery code")?.secret.map { plan.secret($0) } == "rc-1234")
        #expect(github.field(named: "team")?.text == "platform")
        #expect(github.history.map { plan.secret($0.secret) } == ["gh-old"])
        #expect(github.created.description == "2023-11-14T22:13:20.000Z")
        #expect(
            github.notes.hasPrefix("work account") && github.notes.contains("tags: work, dev")
                && !github.notes.contains("rc-1234"))
        let card = try #require(plan.added("Visa"))
        #expect(card.kind == .card)
        #expect(card.field(named: "number")?.secret.map { plan.secret($0) } == "4111111111111111")
        #expect(card.field(named: "security code")?.secret.map { plan.secret($0) } == "123")
        #expect(card.field(named: "PIN")?.isSecret == true)
        #expect(card.field(named: "brand")?.text == "visa")
        #expect(card.field(named: "expiry")?.text == "09/2027")
        #expect(card.field(named: "cardholder")?.text == "Alice Example")
        let note = try #require(plan.added("Safe"))
        #expect(note.kind == .note && note.notes == "vault: Personal")
        #expect(note.field(named: "note")?.secret.map { plan.secret($0) } == "safe: 12-34-56")
        let me = try #require(plan.added("Me"))
        #expect(me.kind == .identity)
        #expect(me.field(named: "first name")?.text == "Alice")
        #expect(me.field(named: "birth date")?.text == "1990-01-01")
        #expect(me.field(named: "address")?.text == "1 Main St, Dublin, D01, ie")
        #expect(plan.steps.contains { $0.action == .notLogin("item in the trash") })
    }

    @Test("a zip without export.data, a damaged one and a forced format that is not a zip are refused by name")
    func refused() throws {
        #expect(throws: ImportFailure.self) { try ImportReader.read(try archive(nil)) }
        let path = try archive(Self.exportData, stored: true)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        // A byte of export.data changed: its CRC-32 no longer holds.
        let marker = try #require(bytes.range(of: Data("gh-pass".utf8)))
        bytes[marker.lowerBound] ^= 0x01
        try bytes.write(to: URL(fileURLWithPath: path))
        do {
            _ = try ImportReader.read(path)
            Issue.record("a damaged archive was read")
        } catch let failure as ImportFailure {
            #expect("\(failure)".contains("CRC-32"), "\(failure)")
        }
        let csv = try directory.freshPath("x.csv")
        try Data("name,url,username,password\nX,https://x.example,u,p\n".utf8).write(to: URL(fileURLWithPath: csv))
        #expect(throws: ImportFailure.self) { try ImportReader.read(csv, format: .onePasswordPux) }
    }
}
