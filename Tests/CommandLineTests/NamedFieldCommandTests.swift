// Named fields and items without a site through the binary: set with edit --field (stdin),
// masked by show unless --reveal, read by get --field NAME, removed with --remove-field; a
// hidden field from an export arrives as a secret field.

import Foundation
import Testing

@Suite("named fields through the binary")
struct NamedFieldCommandTests {
    @Test(
        "edit --field sets a secret field from stdin: show masks it, --reveal and get --field NAME give it; --text and --remove-field"
    )
    func secretField() throws {
        let sandbox = try Sandbox.withVault(Login(["bank.example"], username: "kim", secret: "bank-pw"))
        let set = try sandbox.pwtui(["edit", "bank.example", "--field", "PIN"], stdin: "4321\n")
        #expect(set.exitCode == 0, "\(set)")
        let shown = try sandbox.pwtui(["show", "bank.example"])
        #expect(shown.out.contains("PIN: ••••••••") && !shown.out.contains("4321"), "\(shown)")
        #expect(try sandbox.pwtui(["show", "bank.example", "--reveal"]).out.contains("PIN: 4321"))
        #expect(try sandbox.pwtui(["get", "bank.example", "--field", "pin"]).out == "4321\n")
        let json = try sandbox.pwtui(["show", "bank.example", "--format", "json"])
        #expect(json.out.contains("\"fields\":[{\"name\":\"PIN\",\"secret\":true,\"value\":null}]"), "\(json)")

        #expect(
            try sandbox.pwtui(["edit", "bank.example", "--field", "branch", "--text"], stdin: "North\n").exitCode == 0)
        #expect(try sandbox.pwtui(["show", "bank.example"]).out.contains("branch: North"))
        #expect(try sandbox.pwtui(["edit", "bank.example", "--remove-field", "branch"]).exitCode == 0)
        #expect(!(try sandbox.pwtui(["show", "bank.example"]).out.contains("branch")))
        let missing = try sandbox.pwtui(["get", "bank.example", "--field", "branch"])
        #expect(
            missing.exitCode == 64 && missing.err.contains("no field 'branch'") && missing.err.contains("PIN"),
            "\(missing)")
        #expect(
            try sandbox.pwtui(["get", "bank.example"]).out == "bank-pw\n", "the password is still the default field")
    }

    @Test("a Bitwarden export's hidden field arrives as a secret field, masked by show")
    func importedHiddenField() throws {
        let sandbox = try Sandbox.withVault()
        let path = sandbox.scratch + "/bw.json"
        try """
        {"encrypted": false, "items": [{"type": 1, "name": "Mail", "notes": null,
          "fields": [{"name": "recovery code", "value": "r3c0very", "type": 1}, {"name": "plan", "value": "family", "type": 0}],
          "login": {"username": "kim", "password": "mail-pw", "uris": [{"uri": "https://mail.example"}]}}]}
        """.write(toFile: path, atomically: true, encoding: .utf8)
        let result = try sandbox.pwtui(["import", path])
        #expect(result.exitCode == 0, "\(result)")
        let shown = try sandbox.pwtui(["show", "mail.example"])
        #expect(
            shown.out.contains("recovery code: ••••••••") && shown.out.contains("plan: family")
                && !shown.out.contains("r3c0very"), "\(shown)")
        #expect(try sandbox.pwtui(["get", "mail.example", "--field", "recovery code"]).out == "r3c0very\n")
    }
}
