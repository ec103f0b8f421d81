// The parts of `pwtui run` and `pwtui inject` that need no vault: the reference grammar, the
// .env reader, the template reader and the masker, driven by generated cases where the space
// is large (a secret split across any two reads, overlapping secrets, random bytes).

import Foundation
@testable import Commands
import PwtuiTestSupport
import Testing
import VaultModel

@Suite("pwtui:// references, .env files, templates and masking")
struct ScriptSecretsUnitTests {
    @Test("the reference grammar: the default field, the named ones, a named field, escapes; malformed ones are 64")
    func grammar() throws {
        let plain = try #require(try SecretURI("pwtui://github.com"))
        #expect(plain.name == "github.com" && plain.field == .password)
        #expect(try SecretURI("pwtui://registry.example:5000/username")?.field == .username)
        #expect(try SecretURI("pwtui://github.com/totp")?.field == .totp)
        #expect(try SecretURI("pwtui://github.com/password")?.field == .password)
        #expect(try SecretURI("pwtui://github.com/")?.field == .password)
        let named = try #require(try SecretURI("pwtui://Home%20bank/PIN"))
        #expect(named.name == "Home bank" && named.field == .named("PIN"))
        #expect(try SecretURI("pwtui://Home bank/admin pin")?.field == .named("admin pin"))
        #expect(try SecretURI("pwtui://a%2Fb/c%2Fd")?.name == "a/b")
        #expect(try SecretURI("pwtui://a%2Fb/c%2Fd")?.field == .named("c/d"))
        #expect(try SecretURI("https://github.com") == nil, "not a reference: left as it is")
        #expect(try SecretURI("plain value") == nil)
        for malformed in [
            "pwtui://", "pwtui:///password", "pwtui://a/b/c", "pwtui://a%2", "pwtui://a%zz", "pwtui://%ff%fe",
            "pwtui://a/both", "pwtui://a/json",
        ] {
            let failure = #expect(throws: VaultError.self, "\(malformed)") { _ = try SecretURI(malformed) }
            #expect(failure.map { ExitStatus($0) } == .usage, "\(malformed)")
        }
    }

    @Test("generated names and fields survive percent-encoding: decoded as they were written")
    func generatedEscapes() throws {
        var random = SeededGenerator(seed: 25)
        let alphabet = Array("abcXYZ019 ./:%@é-_")
        for _ in 0 ..< 500 {
            let name = String(
                (0 ..< Int.random(in: 1 ... 12, using: &random)).map { _ in alphabet.randomElement(using: &random)! })
            let field = String(
                (0 ..< Int.random(in: 1 ... 8, using: &random)).map { _ in alphabet.randomElement(using: &random)! })
            func encoded(_ text: String) -> String {
                text.utf8.map { byte in
                    byte == UInt8(ascii: "/") || byte == UInt8(ascii: "%") || byte >= 0x80
                        ? String(format: "%%%02X", byte) : String(UnicodeScalar(byte))
                }.joined()
            }
            guard name.contains(where: { $0 != " " }) else { continue }
            let uri = try #require(try SecretURI("pwtui://\(encoded(name))/\(encoded(field))"))
            #expect(uri.name == name)
            let expected: CredentialField =
                switch field {
                case "password": .password
                case "username": .username
                case "totp": .totp
                default: .named(field)
                }
            if field != "both" && field != "json" { #expect(uri.field == expected, "\(field)") }
        }
    }

    @Test(".env: export, comments, quotes and escapes, CRLF; a line that sets nothing is refused with its number")
    func dotEnv() throws {
        let text =
            "# a comment\r\nexport A=1\r\n\nB = two words # trailing\nC='single # kept'\nD=\"x\\ny \\\"q\\\"\"\nE=\nF=pwtui://github.com\n"
        let file = try DotEnvFile(text: text, path: ".env")
        #expect(file.variables.map(\.name) == ["A", "B", "C", "D", "E", "F"])
        #expect(
            file.variables.map(\.value) == ["1", "two words", "single # kept", "x\ny \"q\"", "", "pwtui://github.com"])
        for (bad, line) in [("A=1\nno equals\n", 2), ("1A=x", 1), ("A-B=x", 1), ("A='open", 1), ("A=\"x\" y", 1)] {
            let failure = #expect(throws: VaultError.self) { _ = try DotEnvFile(text: bad, path: ".env") }
            #expect(failure.map { ExitStatus($0) } == .usage, "\(bad)")
            #expect(failure?.description.hasPrefix(".env, line \(line):") == true, "\(bad)")
        }
    }

    @Test("templates: references found with or without spaces, other braces kept, an open one refused with its line")
    func template() throws {
        let template = try SecretTemplate(
            text: "a: {{ pwtui://github.com }}\nb: {{ .Values.x }}\nc: {{pwtui://Home bank/PIN}}{{ x }}\n", path: "t")
        #expect(template.references.map(\.description) == ["pwtui://github.com", "pwtui://Home bank/PIN"])
        #expect(template.parts == ["a: ", "\nb: {{ .Values.x }}\nc: ", "{{ x }}\n"])
        let none = try SecretTemplate(text: "no references {{ here }}", path: "t")
        #expect(none.references.isEmpty && none.parts == ["no references {{ here }}"])
        let open = #expect(throws: CommandFailure.self) {
            _ = try SecretTemplate(text: "ok\nkey: {{ pwtui://github.com\n}}", path: "t.tpl")
        }
        #expect(open?.message.hasPrefix("t.tpl, line 2:") == true)
        let bad = #expect(throws: CommandFailure.self) {
            _ = try SecretTemplate(text: "{{ pwtui://a/b/c }}", path: "t")
        }
        #expect(bad?.code == .usage)
    }

    /// `text` masked by a masker over `secrets`, fed in chunks cut at `cuts`.
    static func masked(_ text: [UInt8], secrets: [[UInt8]], cuts: [Int]) throws -> [UInt8] {
        var output: [UInt8] = []
        // The secrets one after the other, lent as slices of one buffer.
        let joined = secrets.flatMap { $0 }
        try joined.withUnsafeBytes { all in
            var offset = 0
            let lent = secrets.map { secret in
                defer { offset += secret.count }
                return UnsafeRawBufferPointer(rebasing: all[offset ..< offset + secret.count])
            }
            var masker = try SecretMasker(secrets: lent)
            var start = 0
            for cut in cuts.sorted() + [text.count] where cut >= start {
                try text[start ..< cut].withUnsafeBytes { chunk in try masker.mask(chunk) { output += $0 } }
                start = cut
            }
            try masker.finish { output += $0 }
        }
        return output
    }

    /// The reference answer: leftmost, longest first, in one pass over the whole text.
    static func reference(_ text: [UInt8], secrets: [[UInt8]]) -> [UInt8] {
        var output: [UInt8] = []
        var position = 0
        let secrets = secrets.filter { !$0.isEmpty }
        while position < text.count {
            if let longest = secrets.filter({ text[position...].starts(with: $0) }).map(\.count).max() {
                output += SecretMasker.replacement
                position += longest
            } else {
                output.append(text[position])
                position += 1
            }
        }
        return output
    }

    @Test("masking: whatever the reads' boundaries, the output is the whole text masked at once (generated cases)")
    func maskingIsIndependentOfChunks() throws {
        var random = SeededGenerator(seed: 2025)
        for _ in 0 ..< 400 {
            // A small alphabet, so that secrets overlap, repeat and share prefixes.
            let secrets = (0 ..< Int.random(in: 1 ... 4, using: &random)).map { _ in
                (0 ..< Int.random(in: 0 ... 6, using: &random)).map { _ in UInt8.random(in: 97 ... 99, using: &random) }
            }
            var text = (0 ..< Int.random(in: 0 ... 60, using: &random)).map { _ in
                UInt8.random(in: 97 ... 100, using: &random)
            }
            if let secret = secrets.randomElement(using: &random), !text.isEmpty {
                text.insert(contentsOf: secret, at: Int.random(in: 0 ... text.count, using: &random))
            }
            let cuts = (0 ..< Int.random(in: 0 ... 8, using: &random)).map { _ in
                Int.random(in: 0 ... text.count, using: &random)
            }
            let got = try Self.masked(text, secrets: secrets, cuts: cuts)
            #expect(got == Self.reference(text, secrets: secrets), "secrets \(secrets) text \(text) cuts \(cuts)")
        }
    }

    @Test("masking holds back only what could still become a secret: a prompt without a newline goes out at once")
    func promptNotHeldBack() throws {
        var output: [UInt8] = []
        try Array("hunter2".utf8).withUnsafeBytes { secret in
            var masker = try SecretMasker(secrets: [secret])
            try Array("Password: ".utf8).withUnsafeBytes { try masker.mask($0) { output += $0 } }
            #expect(output == Array("Password: ".utf8))
            try Array("your hun".utf8).withUnsafeBytes { try masker.mask($0) { output += $0 } }
            #expect(output == Array("Password: your ".utf8), "'hun' may be the start of the secret")
            try Array("ter2!".utf8).withUnsafeBytes { try masker.mask($0) { output += $0 } }
            #expect(String(decoding: output, as: UTF8.self) == "Password: your <concealed by pwtui>!")
            try Array("hunt".utf8).withUnsafeBytes { try masker.mask($0) { output += $0 } }
            try masker.finish { output += $0 }
        }
        #expect(String(decoding: output, as: UTF8.self).hasSuffix("!hunt"), "the end of the output is not held")
    }
}
