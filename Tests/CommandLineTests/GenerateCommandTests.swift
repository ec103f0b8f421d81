import Foundation
import Testing

/// `pwtui generate` and `add` / `edit --generate[=RULES]` through the binary.
@Suite("Generating passwords on the command line")
struct GenerateCommandTests {
    @Test("generate: Safari's form, rules given, a site's published rules, a length, a passphrase")
    func generate() throws {
        let sandbox = try Sandbox()
        let plain = try sandbox.pwtui(["generate"], password: .none)
        #expect(
            plain.exitCode == 0
                && plain.out.range(of: "^[a-zA-Z0-9]{6}-[a-zA-Z0-9]{6}-[a-zA-Z0-9]{6}\n$", options: .regularExpression)
                    != nil,
            "\(plain)")
        let ruled = try sandbox.pwtui(
            ["generate", "--rules", "maxlength: 12; required: digit; allowed: lower; max-consecutive: 1"],
            password: .none)
        let password = ruled.out.trimmingCharacters(in: .newlines)
        #expect(
            password.count == 12 && password.allSatisfy { $0.isLowercase || $0.isNumber }
                && password.contains { $0.isNumber }, "\(ruled)")
        #expect(zip(password, password.dropFirst()).allSatisfy { $0 != $1 }, "max-consecutive: 1 in \(password)")
        let site = try sandbox.pwtui(["generate", "--for", "mail.163.com"], password: .none)
        #expect(
            site.exitCode == 0 && (6 ... 16).contains(site.out.count - 1) && site.err.contains("163.com publishes"),
            "\(site)")
        let long = try sandbox.pwtui(["generate", "--length", "40"], password: .none)
        #expect(long.out.count == 41, "\(long)")
        let phrase = try sandbox.pwtui(["generate", "--words", "6"], password: .none)
        #expect(phrase.out.split(separator: "-").count == 6 && phrase.err.isEmpty, "\(phrase)")
        let short = try sandbox.pwtui(["generate", "--words", "3"], password: .none)
        #expect(short.exitCode == 0 && short.err.contains("recommended"), "\(short)")
    }

    @Test(
        "--for takes any service form: a URL applies its site's rules as its domain does; add URL --generate is titled by the host (issue 26, 5)"
    )
    func forAnyServiceForm() throws {
        let sandbox = try Sandbox.withVault()
        for service in [
            "americanexpress.com", "https://www.americanexpress.com/",
            "https://www.americanexpress.com:443/en-us/login?x=1",
            "webcredentials:www.americanexpress.com",
        ] {
            let site = try sandbox.pwtui(["generate", "--for", service], password: .none)
            let password = site.out.trimmingCharacters(in: .newlines)
            #expect(site.exitCode == 0 && site.err.contains("americanexpress.com publishes"), "\(service): \(site)")
            // Its rules: 8 to 20 of letters, digits and %&_?#= (no '-', which Safari's form has).
            #expect(
                (8 ... 20).contains(password.count)
                    && password.allSatisfy { $0.isLetter || $0.isNumber || "%&_?#=".contains($0) },
                "\(service): \(password)")
        }
        let bad = try sandbox.pwtui(["generate", "--for", "https://"], password: .none)
        #expect(bad.exitCode == 64, "\(bad)")

        let add = try sandbox.pwtui([
            "add", "https://www.americanexpress.com/en-us/login", "--username", "u", "--generate",
        ])
        #expect(add.exitCode == 0 && add.err.contains("americanexpress.com publishes"), "\(add)")
        let listed = try sandbox.listJSON()
        #expect(listed.first?["title"] as? String == "www.americanexpress.com", "\(listed)")
    }

    @Test("A rules text that does not parse is 64, with a caret under the column")
    func badRules() throws {
        let sandbox = try Sandbox()
        let bad = try sandbox.pwtui(["generate", "--rules", "minlength: 8; required: vowels"], password: .none)
        #expect(bad.exitCode == 64, "\(bad)")
        let lines = bad.err.split(separator: "\n").map(String.init)
        let rules = try #require(lines.firstIndex { $0.hasSuffix("minlength: 8; required: vowels") })
        #expect(
            lines.indices.contains(rules + 1) && lines[rules + 1].hasSuffix("^")
                && lines[rules + 1].count == lines[rules].count - "vowels".count + 1, "\(bad.err)")
        let impossible = try sandbox.pwtui(["generate", "--rules", "minlength: 30; maxlength: 10"], password: .none)
        #expect(impossible.exitCode == 64 && impossible.err.contains("minlength"), "\(impossible)")
    }

    @Test("Rules that allow no password: generate prints nothing and add saves nothing (64)")
    func emptyPasswordsAreNeverMade() throws {
        let sandbox = try Sandbox.withVault()
        for rules in ["maxlength: 0", "allowed: [é]", "required: [é]"] {
            let generated = try sandbox.pwtui(["generate", "--rules", rules], password: .none)
            #expect(generated.exitCode == 64 && generated.out.isEmpty, "\(generated)")
            #expect(generated.err.contains("no password can meet these rules"), "\(generated)")
        }
        let add = try sandbox.pwtui(["add", "empty.example", "--username", "e", "--generate=maxlength: 0"])
        #expect(add.exitCode == 64 && add.err.contains("maxlength 0"), "\(add)")
        let got = try sandbox.pwtui(["get", "empty.example"])
        #expect(got.exitCode == 1 && got.out.isEmpty, "nothing was saved: \(got)")
    }

    @Test("add --generate=RULES and edit --generate (the site's rules) save passwords that meet them")
    func addAndEdit() throws {
        let sandbox = try Sandbox.withVault()
        let add = try sandbox.pwtui([
            "add", "example.com", "--username", "a", "--generate=maxlength: 10; allowed: digit", "--print",
        ])
        #expect(add.exitCode == 0, "\(add)")
        let printed = add.out.split(separator: "\n")
        #expect(printed.count == 2 && printed[1].count == 10 && printed[1].allSatisfy(\.isNumber), "\(add.out)")
        let saved = try sandbox.pwtui(["get", "example.com"])
        #expect(saved.out == printed[1] + "\n")
        #expect(try sandbox.pwtui(["add", "163.com", "--username", "b", "--generate"]).exitCode == 0)
        let edit = try sandbox.pwtui(["edit", "163.com", "--generate"])
        #expect(edit.exitCode == 0 && edit.err.contains("163.com publishes"), "\(edit)")
        let after = try sandbox.pwtui(["get", "163.com"])
        #expect((6 ... 16).contains(after.out.count - 1), "\(after.out)")
        let misuse = try sandbox.pwtui(["add", "x.example", "--username", "c", "--rules", "maxlength: 8"])
        #expect(misuse.exitCode == 64 && misuse.err.contains("--generate"), "\(misuse)")
    }
}
