import Foundation
import PwtuiTestSupport
import Testing

/// What reaches the terminal from outside text — a pass store's file names, what the user typed —
/// never carries a raw control, bidi or zero-width scalar: the binary's every output and message
/// goes through `PrintableText`. Here what needs the binary: the last message of a failed command
/// (escaped and cut by the binary's `FinalReport`), and an import through gpg in its own
/// GNUPGHOME. Titles, JSON and doctor's copy names are tested in process
/// (CommandsTests/PrintableOutputInProcessTests).
@Suite("printable output through the binary")
struct PrintableOutputTests {
    static func clean(_ result: RunResult) -> Bool {
        !result.out.unicodeScalars.contains(where: UnsafeScalars.contains)
            && !result.err.unicodeScalars.contains(where: UnsafeScalars.contains)
    }

    @Test("a 100,000-character rules text gives a short message")
    func hugeRulesAreCutInTheMessage() throws {
        let sandbox = try Sandbox()
        let rules = "minlength: 8; " + String(repeating: "a", count: 100_000)
        let result = try sandbox.pwtui(["generate", "--rules", rules], password: .none)
        #expect(result.exitCode == 64, "\(result)")
        #expect(result.stderr.count < 2_000, "\(result.stderr.count) bytes of message")
        #expect(result.err.contains("characters in all"), "\(result.err.prefix(600))")
        let control = try sandbox.pwtui(["generate", "--rules", "minlength: 8; \u{1B}]2;pwned\u{07}"], password: .none)
        #expect(control.exitCode == 64 && Self.clean(control) && control.err.contains("\\e]2;pwned"), "\(control)")
    }

    @Test("import --dry-run: a pass store file name with a newline and ESC forges no line")
    func passStoreNamesAreOneLine() throws {
        let sandbox = try Sandbox.withVault()
        let store = sandbox.scratch + "/store"
        try FileManager.default.createDirectory(atPath: store, withIntermediateDirectories: true)
        try "nobody@example.com\n".write(toFile: store + "/.gpg-id", atomically: true, encoding: .utf8)
        try "not encrypted".write(
            toFile: store + "/evil\nadd       forged.example\u{1B}[2J.gpg", atomically: true, encoding: .utf8)
        let home = sandbox.root + "/gnupg"
        try FileManager.default.createDirectory(
            atPath: home, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer { _ = try? sandbox.run("/usr/bin/env", ["gpgconf", "--homedir", home, "--kill", "gpg-agent"]) }
        for arguments in [["import", store, "--dry-run"], ["import", store]] {
            let result = try sandbox.pwtui(arguments, environment: ["GNUPGHOME": home])
            #expect(Self.clean(result), "\(arguments): \(result)")
            let lines = (result.out + result.err).split(separator: "\n")
            #expect(!lines.contains { $0.hasPrefix("add       forged") }, "\(arguments): \(result)")
            #expect(
                (result.out + result.err).contains("evil\\nadd       forged.example\\e[2J"), "\(arguments): \(result)")
        }
    }
}
