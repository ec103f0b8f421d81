import Foundation
import Testing

/// `pwtui generate` and `add` / `edit --generate[=RULES]` through the binary: only what the binary
/// adds — `--for` taking any service form (the command turns it into a host before
/// `GeneratePassword` sees it), `--generate=RULES` (rewritten to `--rules` by the binary's runner),
/// the option checks, and one exit code each. The passwords made, the rules' errors and what add and
/// edit save are tested in process (CommandsTests/GenerateInProcessTests).
@Suite("Generating passwords on the command line")
struct GenerateCommandTests {
    @Test(
        "--for takes any service form: a URL applies its site's rules as its domain does; an empty URL is 64 (issue 26, 5)"
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
    }

    @Test("exit codes end to end: generate 0, rules that allow nothing 64 with empty stdout")
    func exitCodes() throws {
        let sandbox = try Sandbox()
        let plain = try sandbox.pwtui(["generate"], password: .none)
        #expect(plain.exitCode == 0 && plain.out.count == 21, "\(plain)")
        let none = try sandbox.pwtui(["generate", "--rules", "maxlength: 0"], password: .none)
        #expect(
            none.exitCode == 64 && none.out.isEmpty && none.err.contains("no password can meet these rules"), "\(none)")
    }

    @Test("add --generate=RULES reaches the rules as --rules; --rules without --generate is 64")
    func generateEqualsRules() throws {
        let sandbox = try Sandbox.withVault()
        let add = try sandbox.pwtui([
            "add", "example.com", "--username", "a", "--generate=maxlength: 10; allowed: digit", "--print",
        ])
        #expect(add.exitCode == 0, "\(add)")
        let printed = add.out.split(separator: "\n")
        #expect(printed.count == 2 && printed[1].count == 10 && printed[1].allSatisfy(\.isNumber), "\(add.out)")
        let misuse = try sandbox.pwtui(["add", "x.example", "--username", "c", "--rules", "maxlength: 8"])
        #expect(misuse.exitCode == 64 && misuse.err.contains("--generate"), "\(misuse)")
    }
}
