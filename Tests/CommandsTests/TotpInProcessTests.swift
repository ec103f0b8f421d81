// One-time codes in process (`AddCredential` and `EditCredential` with a key from stdin, `totp` as
// TotpCommand builds it, `GetCredential --field totp`): the code that comes out is the one
// Python's hmac computes for the same key and time, a bad key is 64 and never echoed.

import Foundation
@testable import Commands
import PwtuiTestSupport
import Testing
import VaultModel

@Suite("one-time codes, in process")
struct TotpInProcessTests {
    static let uri = ReferenceOneTimeCodes.uri

    /// `pwtui totp WORDS…` / `pwtui totp --id ID`, as TotpCommand builds it.
    static func totp(_ services: [String], id: String? = nil, in fixture: CommandFixture) throws -> (
        failure: CommandFailure?, streams: RecordedStreams
    ) {
        try fixture.failure(typing: CommandFixture.unlock) { context in
            var get = GetCredential(
                query: try OneTimeCodeQuery.query(services: services, id: id, in: context), field: .totp,
                noInteraction: false)
            get.saysTimeLeft = true
            try get.run(in: context)
        }
    }

    static func addWithKey(_ service: String, _ username: String, stdin: String, in fixture: CommandFixture) throws -> (
        failure: CommandFailure?, streams: RecordedStreams
    ) {
        try fixture.failure(input: stdin, typing: CommandFixture.unlock) {
            var add = AddCredential(
                services: [service], username: username, title: "", notes: "", rank: 0, generate: false)
            add.oneTimeKey = true
            try add.run(in: $0)
        }
    }

    @Test(
        "add --totp reads the password, then the key, from stdin; get --field totp and totp print Python's code; json carries it"
    )
    func codesMatchPython() throws {
        let fixture = try CommandFixture()
        let add = try Self.addWithKey("github.com", "alice", stdin: "the password\n\(Self.uri)\n", in: fixture)
        #expect(add.failure == nil, "\(String(describing: add.failure))")
        let expected = try ReferenceOneTimeCodes.now()
        let get = try fixture.run(typing: CommandFixture.unlock) {
            try GetCredential.words(["github.com"], field: .totp).run(in: $0)
        }
        #expect(expected.contains(get.output.trimmingCharacters(in: .newlines)), "\(get.output) not in \(expected)")
        let totp = try Self.totp(["github.com"], in: fixture)
        #expect(
            totp.failure == nil && expected.contains(totp.streams.output.trimmingCharacters(in: .newlines)),
            "\(totp.streams.output)")
        #expect(
            !totp.streams.errorText.contains("valid for"), "seconds left only on a terminal: \(totp.streams.messages)")
        let json = try fixture.run(typing: CommandFixture.unlock) {
            try GetCredential.words(["github.com"], field: .json).run(in: $0)
        }
        #expect(
            json.output.contains("\"password\":\"the password\"") && json.output.contains("\"totp\":\""),
            "\(json.output)")
        let password = try fixture.run(typing: CommandFixture.unlock) {
            try GetCredential.words(["github.com"]).run(in: $0)
        }
        #expect(password.output == "the password\n", "the key's line did not become the password")
    }

    @Test("get --field totp chooses as totp does: the best match that has a key, past a better one without (issue 35)")
    func getFieldTotpChoosesLikeTotp() throws {
        let fixture = try CommandFixture()
        try #require(
            try Self.addWithKey("github.com", "bob", stdin: "bobs password\n\(Self.uri)\n", in: fixture).failure == nil)
        // alice, ranked above bob, has no key.
        _ = try fixture.run(input: "alices password\n", typing: CommandFixture.unlock) {
            try AddCredential(
                services: ["github.com"], username: "alice", title: "", notes: "", rank: 10, generate: false
            ).run(in: $0)
        }
        let password = try fixture.run(typing: CommandFixture.unlock) {
            try GetCredential.words(["github.com"]).run(in: $0)
        }
        #expect(password.output == "alices password\n", "alice is the best match for a password")
        let expected = try ReferenceOneTimeCodes.now()
        let get = try fixture.run(typing: CommandFixture.unlock) {
            try GetCredential.words(["github.com"], field: .totp).run(in: $0)
        }
        #expect(expected.contains(get.output.trimmingCharacters(in: .newlines)), "\(get.output) not in \(expected)")
        let totp = try Self.totp(["github.com"], in: fixture)
        #expect(totp.streams.output == get.output)
    }

    @Test("totp on a terminal says the seconds left on stderr, the code alone on stdout")
    func timeLeftOnATerminal() throws {
        let fixture = try CommandFixture()
        try #require(try Self.addWithKey("github.com", "alice", stdin: "pw\n\(Self.uri)\n", in: fixture).failure == nil)
        let recorded = try fixture.run(typing: CommandFixture.unlock, answerIsTerminal: true) { context in
            var get = GetCredential(
                query: try OneTimeCodeQuery.query(services: ["github.com"], id: nil, in: context), field: .totp,
                noInteraction: false)
            get.saysTimeLeft = true
            try get.run(in: context)
        }
        #expect(
            try ReferenceOneTimeCodes.now().contains(recorded.output.trimmingCharacters(in: .newlines)),
            "\(recorded.output)")
        #expect(recorded.errorText.contains("valid for"), "\(recorded.messages)")
    }

    @Test("edit --totp takes a bare base32 secret; --remove-totp removes it; then totp is 1, saying how to add one")
    func editAndRemove() throws {
        let fixture = try CommandFixture([("example.com", "bob", "pw", "")])
        try fixture.run(input: "gezd gnbv gy3t qojq gezd gnbv gy3t qojq\n", typing: CommandFixture.unlock) {
            try EditCredential(
                id: "example.com", edits: CredentialChange.Edits(), generate: false, setsOneTimeKey: true
            ).run(in: $0)
        }
        let code = try Self.totp(["example.com"], in: fixture)
        #expect(
            try ReferenceOneTimeCodes.now(digits: 6).contains(code.streams.output.trimmingCharacters(in: .newlines)),
            "\(code.streams.output)")
        try fixture.run(typing: CommandFixture.unlock) {
            try EditCredential(id: "example.com", edits: CredentialChange.Edits(totp: .remove), generate: false).run(
                in: $0)
        }
        let none = try Self.totp(["example.com"], in: fixture)
        let said = (none.failure?.message ?? "") + none.streams.errorText
        #expect(
            none.failure?.code == .noMatch && said.contains("has an authenticator key") && said.contains("--totp"),
            "\(said)")
    }

    @Test(
        "totp SERVICE takes the best match that has a key, not the best match; totp ID works as show ID does (issue 26, 4)"
    )
    func bestMatchWithAKey() throws {
        let fixture = try CommandFixture()
        // The better match (a higher rank) has no key; the other account has one.
        try fixture.run(input: "pw-work", typing: CommandFixture.unlock) {
            try AddCredential(
                services: ["github.com"], username: "work", title: "", notes: "", rank: 5, generate: false
            ).run(in: $0)
        }
        let add = try Self.addWithKey("github.com", "alice", stdin: "pw-alice\n\(Self.uri)\n", in: fixture)
        let id = add.streams.output.trimmingCharacters(in: .whitespacesAndNewlines)
        try #require(add.failure == nil && UUID(uuidString: id) != nil, "\(add.streams.output)")
        #expect(
            try fixture.run(typing: CommandFixture.unlock) { try GetCredential.words(["github.com"]).run(in: $0) }
                .output == "pw-work\n",
            "the best match has no key")
        let expected = try ReferenceOneTimeCodes.now()
        let code = try Self.totp(["github.com"], in: fixture)
        #expect(expected.contains(code.streams.output.trimmingCharacters(in: .newlines)), "\(code.streams.output)")
        for reference in [String(id.prefix(8)), id] {
            let byID = try Self.totp([reference], in: fixture)
            #expect(
                byID.failure == nil && expected.contains(byID.streams.output.trimmingCharacters(in: .newlines)),
                "totp \(reference): \(String(describing: byID.failure))")
        }
        let none = try Self.totp(["gitlab.com"], in: fixture)
        #expect(
            none.failure?.code == .noMatch
                && none.failure?.message.contains("no credential matches gitlab.com") == true,
            "\(String(describing: none.failure))")
    }

    @Test("a key that is not one is 64, never echoed, and nothing is saved")
    func badKeys() throws {
        let fixture = try CommandFixture([("example.com", "bob", "pw", "")])
        for bad in [
            "otpauth://hotp/x?secret=GEZDGNBVGY3TQOJQ&counter=3", "SECRET-WITH-1-AND-8",
            "otpauth://totp/x?secret=GEZDGNBV&digits=12",
        ] {
            let (failure, streams) = try fixture.failure(input: bad + "\n", typing: CommandFixture.unlock) {
                try EditCredential(
                    id: "example.com", edits: CredentialChange.Edits(), generate: false, setsOneTimeKey: true
                ).run(in: $0)
            }
            #expect(failure?.code == .usage, "\(bad): \(String(describing: failure))")
            let said = (failure?.message ?? "") + streams.errorText
            #expect(!said.contains("GEZDGNBV") && !said.contains("SECRET-WITH"), "\(said)")
        }
        let add = try Self.addWithKey("new.example", "x", stdin: "pw\nnot base32 !\n", in: fixture)
        #expect(add.failure?.code == .usage, "\(String(describing: add.failure))")
        let credentials = try fixture.vault().contents.credentials
        #expect(credentials.count == 1 && credentials.allSatisfy { $0.totp == nil }, "a bad key added and set nothing")
    }
}
