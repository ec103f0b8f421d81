// Issue 38's smaller items, in process: a `pwtui://` reference to a title with a slash says how
// to write it; messages name an item without username or site without "(, )"; `show` of an SSH
// key says where its private key is written out, and `show` says whether an item makes codes.

import Foundation
@testable import Commands
import Testing
import VaultCrypto
import VaultModel

@Suite("issue 38's smaller items, in process")
struct SecondWeekInProcessTests {
    @Test("pwtui://work/db for the title 'work/db' fails saying to write pwtui://work%2Fdb")
    func slashInTitleIsExplained() throws {
        let fixture = try CommandFixture([("", "", "db-pw", "work/db")])
        let (failure, _) = try fixture.failure(typing: CommandFixture.unlock) {
            var run = RunWithSecrets(command: ["/bin/true"])
            run.assignments = ["DB=pwtui://work/db"]
            _ = try run.run(in: $0)
        }
        #expect(failure?.code == .noMatch, "\(String(describing: failure))")
        #expect(failure?.message.contains("pwtui://work%2Fdb") == true, "\(String(describing: failure))")
        // As suggested, it works.
        let (written, _) = try fixture.failure(typing: CommandFixture.unlock) {
            var run = RunWithSecrets(command: ["/bin/sh", "-c", "[ \"$DB\" = db-pw ]"])
            run.assignments = ["DB=pwtui://work%2Fdb"]
            let ending = try run.run(in: $0)
            #expect(ending == .exited(0), "\(String(describing: ending))")
        }
        #expect(written == nil, "\(String(describing: written))")
    }

    @Test("an item without username or site is named by its title alone, never 'Title (, )'")
    func noEmptyParentheses() throws {
        let fixture = try CommandFixture([("", "", "wifi-pw", "Home Wi-Fi")])
        let removed = try fixture.run(typing: CommandFixture.unlock) {
            try RemoveCredential(id: "Home Wi-Fi", confirmed: true).run(in: $0)
        }
        #expect(removed.errorText.contains("Deleted Home Wi-Fi."), "\(removed.messages)")
        #expect(!removed.errorText.contains("(, )") && !removed.errorText.contains("()"), "\(removed.messages)")
        #expect(IdentitySummary.text(title: "T", username: "", services: ["a.example"]) == "T (a.example)")
        #expect(IdentitySummary.text(title: "T", username: "kim", services: []) == "T (kim)")
        #expect(IdentitySummary.text(title: "T", username: "kim", services: ["a", "b"]) == "T (kim, a b)")
    }

    @Test("show says whether an item has an authenticator key; a note made by hand has no password")
    func showSaysTotpAndNoPassword() throws {
        let fixture = try CommandFixture([("github.com", "kim", "gh-pw", "GitHub")])
        func show(_ reference: String, json: Bool = false) throws -> String {
            try fixture.run(typing: CommandFixture.unlock) {
                try ShowCredential(reference: reference, reveal: false, format: json ? .json : .text).run(in: $0)
            }.output
        }
        let without = try show("GitHub")
        #expect(without.contains("totp        none"), "\(without)")
        #expect(try show("GitHub", json: true).contains("\"totp\":false"))
        try fixture.run(input: "JBSWY3DPEHPK3PXP\n", typing: CommandFixture.unlock) {
            try EditCredential(id: "GitHub", edits: CredentialChange.Edits(), generate: false, setsOneTimeKey: true)
                .run(in: $0)
        }
        let withKey = try show("GitHub")
        #expect(withKey.contains("totp        an authenticator key (6 digits every 30 s"), "\(withKey)")
        #expect(try show("GitHub", json: true).contains("\"totp\":true"))
        try fixture.run(input: "text\n", typing: CommandFixture.unlock) {
            var add = AddCredential(services: [], username: "", title: "Memo", notes: "", rank: 0, generate: false)
            add.kind = .note
            try add.run(in: $0)
        }
        let memo = try show("Memo")
        #expect(memo.contains("password    none"), "\(memo)")
    }
}
