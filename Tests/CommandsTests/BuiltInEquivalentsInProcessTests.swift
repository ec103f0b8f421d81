// Built-in equivalent groups in process (`EditEquivalents`, `GetCredential`): listed as built in,
// used by get, turned off (get no longer matches, the list says so) and on again.

import Foundation
@testable import Commands
import Testing
import VaultModel

@Suite("built-in equivalents, in process")
struct BuiltInEquivalentsInProcessTests {
    static func get(_ service: String, in fixture: CommandFixture) throws -> (
        failure: CommandFailure?, streams: RecordedStreams
    ) {
        try fixture.failure(typing: CommandFixture.unlock) {
            try GetCredential.words([service], field: .password).run(in: $0)
        }
    }

    @Test(
        "list marks built-in groups without the master password; get uses them; off stops them and the list says so; on restores"
    )
    func offAndOn() throws {
        let fixture = try CommandFixture([("envato.com", "author", "envato-pw", "Envato")])
        // No terminal: the identity store answers the list.
        let listed = try fixture.run { try EditEquivalents.list(in: $0) }
        #expect(
            listed.output.contains("envato.com graphicriver.net")
                && listed.output.contains("themeforest.net tutsplus.com videohive.net  (built in)\n"),
            "\(listed.output.prefix(300))")
        let matched = try Self.get("themeforest.net", in: fixture)
        #expect(
            matched.failure == nil && matched.streams.output == "envato-pw\n", "\(String(describing: matched.failure))")

        let off = try fixture.run { try EditEquivalents.setBuiltIn(["themeforest.net"], on: false, in: $0) }
        #expect(off.errorText.contains("off"), "\(off.messages)")
        #expect(
            try fixture.run { try EditEquivalents.list(in: $0) }.output.contains("videohive.net  (built in, off)\n"))
        let unmatched = try Self.get("themeforest.net", in: fixture)
        #expect(unmatched.failure?.code == .noMatch && unmatched.streams.output.isEmpty, "off: no match")

        try fixture.run { try EditEquivalents.setBuiltIn(["envato.com"], on: true, in: $0) }
        #expect(try Self.get("themeforest.net", in: fixture).streams.output == "envato-pw\n")
    }

    @Test("off for a domain in no built-in group: 1, saying so")
    func unknownDomain() throws {
        let fixture = try CommandFixture()
        let (failure, _) = try fixture.failure { try EditEquivalents.setBuiltIn(["example.org"], on: false, in: $0) }
        #expect(
            failure?.code == .noMatch && failure?.message.contains("no built-in group") == true,
            "\(String(describing: failure))")
    }
}
