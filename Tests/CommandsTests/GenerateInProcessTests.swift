// `generate`, and `add` / `edit --generate` with rules, in process (`GeneratePassword`,
// `AddCredential`, `EditCredential`): Safari's form, rules given, a site's published rules, a
// length, a passphrase; rules that do not parse or allow nothing are 64 and save nothing.

import Foundation
@testable import Commands
import Testing
import VaultModel

@Suite("generating passwords, in process")
struct GenerateInProcessTests {
    static func generated(_ generate: GeneratePassword, in fixture: CommandFixture) throws -> RecordedStreams {
        try fixture.run { try generate.run(in: $0) }
    }

    /// Whether `phrase` is `count` words of the EFF list joined by hyphens. Four of its words hold
    /// a hyphen of their own (t-shirt, drop-down), so the parts are not counted but read as words:
    /// the phrase splits into `count` of them one way or another (a one in 300 run drew one).
    static func isPassphrase(_ phrase: String, words count: Int) throws -> Bool {
        let list = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "../../Resources/wordlists/eff-large-wordlist.txt")
        let words = Set(try String(contentsOf: list, encoding: .utf8).split(separator: "\n").map(String.init))
        let parts = phrase.split(separator: "-", omittingEmptySubsequences: false).map(String.init)
        // How many words the first `end` parts can be read as.
        var readings: [Set<Int>] = Array(repeating: [], count: parts.count + 1)
        readings[0] = [0]
        for end in 1 ... parts.count {
            for start in max(0, end - 2) ..< end where words.contains(parts[start ..< end].joined(separator: "-")) {
                readings[end].formUnion(readings[start].map { $0 + 1 })
            }
        }
        return readings[parts.count].contains(count)
    }

    @Test(
        "generate: Safari's form by default, rules given (max-consecutive kept), a site's published rules, a length, a passphrase"
    )
    func generate() throws {
        let fixture = try CommandFixture()
        let plain = try Self.generated(GeneratePassword(), in: fixture)
        #expect(
            plain.output.range(of: "^[a-zA-Z0-9]{6}-[a-zA-Z0-9]{6}-[a-zA-Z0-9]{6}\n$", options: .regularExpression)
                != nil, "\(plain.output)")
        let ruled = try Self.generated(
            GeneratePassword(rules: "maxlength: 12; required: digit; allowed: lower; max-consecutive: 1"), in: fixture)
        let password = ruled.output.trimmingCharacters(in: .newlines)
        #expect(
            password.count == 12 && password.allSatisfy { $0.isLowercase || $0.isNumber }
                && password.contains { $0.isNumber }, "\(password)")
        #expect(zip(password, password.dropFirst()).allSatisfy { $0 != $1 }, "max-consecutive: 1 in \(password)")
        let site = try Self.generated(GeneratePassword(hosts: ["mail.163.com"]), in: fixture)
        #expect(
            (6 ... 16).contains(site.output.count - 1) && site.errorText.contains("163.com publishes"),
            "\(site.output) \(site.messages)")
        #expect(try Self.generated(GeneratePassword(length: 40), in: fixture).output.count == 41)
        let phrase = try Self.generated(GeneratePassword(words: 6), in: fixture)
        #expect(
            try Self.isPassphrase(phrase.output.trimmingCharacters(in: .newlines), words: 6)
                && phrase.messages.isEmpty,
            "\(phrase.output) \(phrase.messages)")
        #expect(try Self.generated(GeneratePassword(words: 3), in: fixture).errorText.contains("recommended"))
    }

    @Test("a site's rules by its host: americanexpress.com's 8 to 20 of letters, digits and %&_?#=")
    func sitesRules() throws {
        let fixture = try CommandFixture()
        for host in ["americanexpress.com", "www.americanexpress.com"] {
            let site = try Self.generated(GeneratePassword(hosts: [host]), in: fixture)
            let password = site.output.trimmingCharacters(in: .newlines)
            #expect(site.errorText.contains("americanexpress.com publishes"), "\(host): \(site.messages)")
            #expect(
                (8 ... 20).contains(password.count)
                    && password.allSatisfy { $0.isLetter || $0.isNumber || "%&_?#=".contains($0) },
                "\(host): \(password)")
        }
    }

    @Test(
        "rules that do not parse: 64, the rules and a caret under the column in the message; impossible rules name minlength"
    )
    func badRules() throws {
        let fixture = try CommandFixture()
        let (bad, streams) = try fixture.failure {
            try GeneratePassword(rules: "minlength: 8; required: vowels").run(in: $0)
        }
        #expect(bad?.code == .usage && streams.output.isEmpty, "\(String(describing: bad))")
        let lines = ((bad?.message ?? "") + "\n" + streams.errorText).split(separator: "\n").map(String.init)
        let rules = try #require(lines.firstIndex { $0.hasSuffix("minlength: 8; required: vowels") }, "\(lines)")
        #expect(
            lines.indices.contains(rules + 1) && lines[rules + 1].hasSuffix("^")
                && lines[rules + 1].count == lines[rules].count - "vowels".count + 1, "\(lines)")
        let (impossible, _) = try fixture.failure {
            try GeneratePassword(rules: "minlength: 30; maxlength: 10").run(in: $0)
        }
        #expect(
            impossible?.code == .usage && impossible?.message.contains("minlength") == true,
            "\(String(describing: impossible))")
    }

    @Test("rules that allow no password: generate prints nothing and add saves nothing (64)")
    func emptyPasswordsAreNeverMade() throws {
        let fixture = try CommandFixture()
        for rules in ["maxlength: 0", "allowed: [é]", "required: [é]"] {
            let (failure, streams) = try fixture.failure { try GeneratePassword(rules: rules).run(in: $0) }
            #expect(failure?.code == .usage && streams.output.isEmpty, "\(rules): \(String(describing: failure))")
            #expect(
                failure?.message.contains("no password can meet these rules") == true,
                "\(rules): \(String(describing: failure))")
        }
        let (add, _) = try fixture.failure(typing: CommandFixture.unlock) {
            var add = AddCredential(
                services: ["empty.example"], username: "e", title: "", notes: "", rank: 0, generate: true)
            add.generationRules = "maxlength: 0"
            try add.run(in: $0)
        }
        #expect(add?.code == .usage && add?.message.contains("maxlength 0") == true, "\(String(describing: add))")
        #expect(try fixture.vault().contents.credentials.isEmpty, "nothing was saved")
    }

    @Test(
        "add --generate=RULES and edit --generate (the site's rules) save passwords that meet them; add URL --generate is titled by the host"
    )
    func addAndEdit() throws {
        let fixture = try CommandFixture()
        let added = try fixture.run(typing: CommandFixture.unlock) {
            var add = AddCredential(
                services: ["example.com"], username: "a", title: "", notes: "", rank: 0, generate: true,
                printPassword: true)
            add.generationRules = "maxlength: 10; allowed: digit"
            try add.run(in: $0)
        }
        let printed = added.output.split(separator: "\n")
        #expect(printed.count == 2 && printed[1].count == 10 && printed[1].allSatisfy(\.isNumber), "\(added.output)")
        #expect(
            try fixture.run(typing: CommandFixture.unlock) { try GetCredential.words(["example.com"]).run(in: $0) }
                .output == printed[1] + "\n")

        try fixture.run(typing: CommandFixture.unlock) {
            try AddCredential(services: ["163.com"], username: "b", title: "", notes: "", rank: 0, generate: true).run(
                in: $0)
        }
        let edit = try fixture.run(typing: CommandFixture.unlock) {
            try EditCredential(id: "163.com", edits: CredentialChange.Edits(replacesSecret: true), generate: true).run(
                in: $0)
        }
        #expect(edit.errorText.contains("163.com publishes"), "\(edit.messages)")
        let after = try fixture.run(typing: CommandFixture.unlock) { try GetCredential.words(["163.com"]).run(in: $0) }
        #expect((6 ... 16).contains(after.output.count - 1), "\(after.output)")

        let url = try fixture.run(typing: CommandFixture.unlock) {
            try AddCredential(
                services: ["https://www.americanexpress.com/en-us/login"], username: "u", title: "", notes: "", rank: 0,
                generate: true
            )
            .run(in: $0)
        }
        #expect(url.errorText.contains("americanexpress.com publishes"), "\(url.messages)")
        #expect(try fixture.vault().contents.credentials.contains { $0.title == "www.americanexpress.com" })
    }
}
