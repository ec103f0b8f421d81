// Named fields in process (`EditCredential`'s --field, --text and --remove-field, `ShowCredential`,
// `GetCredential` with a named field, `ImportCredentials`): set from stdin, masked by show unless
// revealed, read by get, removed; a hidden field from an export arrives as a secret field.

import Foundation
@testable import Commands
import Testing
import VaultModel

@Suite("named fields, in process")
struct NamedFieldInProcessTests {
    static func fixture() throws -> CommandFixture {
        try CommandFixture([("bank.example", "kim", "bank-pw", "Bank")])
    }

    /// `pwtui edit REFERENCE --field NAME [--text]`, its value on stdin.
    static func setField(_ name: String, text: Bool = false, to value: String, in fixture: CommandFixture) throws {
        try fixture.run(input: value, typing: CommandFixture.unlock) {
            var edit = EditCredential(id: "bank.example", edits: CredentialChange.Edits(), generate: false)
            edit.fieldName = name
            edit.fieldIsText = text
            try edit.run(in: $0)
        }
    }

    static func show(_ fixture: CommandFixture, reveal: Bool = false, format: CredentialView.Format = .text) throws
        -> String
    {
        try fixture.run(typing: CommandFixture.unlock) {
            try ShowCredential(reference: "bank.example", reveal: reveal, format: format).run(in: $0)
        }.output
    }

    static func get(_ field: CredentialField, in fixture: CommandFixture) throws -> String {
        try fixture.run(typing: CommandFixture.unlock) {
            try GetCredential.words(["bank.example"], field: field).run(in: $0)
        }.output
    }

    @Test(
        "edit --field sets a secret field from stdin: show masks it, --reveal shows it, get --field NAME gives it (any case)"
    )
    func secretField() throws {
        let fixture = try Self.fixture()
        try Self.setField("PIN", to: "4321\n", in: fixture)
        let shown = try Self.show(fixture)
        #expect(shown.contains("PIN: ••••••••") && !shown.contains("4321"), "\(shown)")
        #expect(try Self.show(fixture, reveal: true).contains("PIN: 4321"))
        #expect(try Self.get(.named("pin"), in: fixture) == "4321\n")
        let json = try Self.show(fixture, format: .json)
        #expect(json.contains("\"fields\":[{\"name\":\"PIN\",\"secret\":true,\"value\":null}]"), "\(json)")
        #expect(try Self.get(.password, in: fixture) == "bank-pw\n", "the password is still the default field")
    }

    @Test("edit --field --text sets a text field show prints as it is; --remove-field takes it away")
    func textFieldRemoved() throws {
        let fixture = try Self.fixture()
        try Self.setField("branch", text: true, to: "North\n", in: fixture)
        #expect(try Self.show(fixture).contains("branch: North"))
        try fixture.run(typing: CommandFixture.unlock) {
            try EditCredential(
                id: "bank.example", edits: CredentialChange.Edits(removeFields: ["branch"]), generate: false
            ).run(in: $0)
        }
        #expect(!(try Self.show(fixture).contains("branch")))
        #expect(try fixture.vault().contents.credentials.first?.fields.isEmpty == true)
    }

    @Test("edit --field takes all of stdin, every line (recovery codes), one trailing newline dropped (issue 38)")
    func fieldTakesEveryLine() throws {
        let fixture = try Self.fixture()
        try Self.setField("recovery codes", to: "1111-2222\n3333-4444\r\n5555-6666\n", in: fixture)
        #expect(try Self.get(.named("recovery codes"), in: fixture) == "1111-2222\n3333-4444\r\n5555-6666\n")
        try Self.setField("memo", text: true, to: "first line\n\nthird line\n", in: fixture)
        let memo = try fixture.vault().contents.credentials.first?.fields.first { $0.name == "memo" }
        #expect(memo?.text == "first line\n\nthird line")
    }

    @Test("edit --field on a terminal asks one line and says how to give more (issue 38)")
    func terminalPromptSaysOneLine() throws {
        let fixture = try Self.fixture()
        let streams = try fixture.run(
            typing: CommandFixture.unlock + [.secret("4321")], inputIsTerminal: true
        ) {
            var edit = EditCredential(id: "bank.example", edits: CredentialChange.Edits(), generate: false)
            edit.fieldName = "PIN"
            try edit.run(in: $0)
        }
        let asked = streams.prompt?.transcript.last ?? ""
        #expect(asked.contains("one line") && asked.contains("stdin"), "\(asked)")
        #expect(try Self.get(.named("PIN"), in: fixture) == "4321\n")
    }

    @Test("get --field of a field the credential lacks: 64, naming the fields it has; nothing on stdout")
    func missingField() throws {
        let fixture = try Self.fixture()
        try Self.setField("PIN", to: "4321\n", in: fixture)
        let (failure, streams) = try fixture.failure(typing: CommandFixture.unlock) {
            try GetCredential.words(["bank.example"], field: .named("branch")).run(in: $0)
        }
        #expect(failure?.code == .usage, "\(String(describing: failure))")
        #expect(
            failure?.message.contains("no field 'branch'") == true && failure?.message.contains("PIN") == true,
            "\(String(describing: failure))")
        #expect(streams.output.isEmpty)
    }

    @Test("a Bitwarden export's hidden field arrives as a secret field, masked by show; its text field as text")
    func importedHiddenField() throws {
        let fixture = try CommandFixture()
        let path = fixture.root + "/bw.json"
        try """
        {"encrypted": false, "items": [{"type": 1, "name": "Mail", "notes": null,
          "fields": [{"name": "recovery code", "value": "r3c0very", "type": 1}, {"name": "plan", "value": "family", "type": 0}],
          "login": {"username": "kim", "password": "mail-pw", "uris": [{"uri": "https://mail.example"}]}}]}
        """.write(toFile: path, atomically: true, encoding: .utf8)
        try fixture.run(typing: CommandFixture.unlock) {
            try ImportCredentials(path: path, format: nil, dryRun: false, policy: .skip, skipInvalid: false).run(in: $0)
        }
        let shown = try fixture.run(typing: CommandFixture.unlock) {
            try ShowCredential(reference: "mail.example", reveal: false, format: .text).run(in: $0)
        }.output
        #expect(
            shown.contains("recovery code: ••••••••") && shown.contains("plan: family") && !shown.contains("r3c0very"),
            "\(shown)")
        let code = try fixture.run(typing: CommandFixture.unlock) {
            try GetCredential.words(["mail.example"], field: .named("recovery code")).run(in: $0)
        }
        #expect(code.output == "r3c0very\n")
    }
}
