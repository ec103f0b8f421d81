import Foundation
import Testing

/// What reaches the terminal from outside text — a vault's titles, a pass store's file names, a
/// sync service's copy names, what the user typed — never carries a raw control, bidi or
/// zero-width scalar: the binary's every output and message goes through `PrintableText`.
@Suite("printable output through the binary")
struct PrintableOutputTests {
    /// C0, DEL, C1, bidi controls, zero-width characters (PrintableText's list).
    static func unsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00 ... 0x08, 0x0B ... 0x1F, 0x7F ... 0x9F, 0x061C, 0x200B ... 0x200F, 0x202A ... 0x202E, 0x2060,
            0x2066 ... 0x2069, 0xFEFF:
            return true
        default: return false
        }
    }

    static func clean(_ result: RunResult) -> Bool {
        !result.out.unicodeScalars.contains(where: unsafe) && !result.err.unicodeScalars.contains(where: unsafe)
    }

    @Test("a title with U+202E and a username with U+200B: list, suggest, show, history and JSON")
    func bidiAndZeroWidthTitles() throws {
        let sandbox = try Sandbox.withVault()
        let title = "invoice\u{202E}gpj.exe", username = "al\u{200B}ice"
        try sandbox.add(
            ["files.example"], username: username, secret: "pw-1",
            extra: ["--title", title, "--notes", "csi\u{9B}31m here"])
        #expect(try sandbox.pwtui(["edit", "files.example", "--password"], stdin: "pw-2").exitCode == 0)
        for arguments in [
            ["list"], ["suggest", "files.example"], ["show", "files.example"], ["history", "files.example"],
        ] {
            let result = try sandbox.pwtui(arguments)
            #expect(result.exitCode == 0, "\(result)")
            #expect(Self.clean(result), "\(arguments): \(result)")
            #expect((result.out + result.err).contains("invoice\\u{202E}gpj.exe"), "\(arguments): \(result)")
        }
        let shown = try sandbox.pwtui(["show", "files.example"])
        #expect(shown.out.contains("al\\u{200B}ice") && shown.out.contains("csi\\u{9B}31m here"), "\(shown)")
        for arguments in [["show", "files.example", "--format", "json"], ["list", "--format", "json"]] {
            let json = try sandbox.pwtui(arguments)
            #expect(json.exitCode == 0 && Self.clean(json), "\(arguments): \(json)")
            #expect(json.out.contains("\\u202e"), "\(json)")
            let object = try JSONSerialization.jsonObject(with: Data(json.stdout))
            let first = (object as? [[String: Any]])?.first ?? (object as? [String: Any])
            #expect(first?["title"] as? String == title, "the JSON still decodes to the title: \(json)")
        }
        let json = try sandbox.pwtui(["show", "files.example", "--format", "json"])
        #expect(json.out.contains("\\u009b"), "C1 escaped in JSON: \(json)")
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

    @Test("doctor names a conflict copy whose name holds ESC ]2; without retitling the window")
    func doctorEscapesCopyNames() throws {
        let sandbox = try Sandbox.withVault()
        let copy = sandbox.vaultDirectory + "/vault.sync-conflict-\u{1B}]2;pwned\u{07}.pwtui"
        try FileManager.default.copyItem(atPath: sandbox.vault, toPath: copy)
        let doctor = try sandbox.pwtui(["doctor"], password: .none)
        #expect(doctor.out.contains("conflict copy") && doctor.out.contains("\\e]2;pwned\\u{07}"), "\(doctor)")
        #expect(Self.clean(doctor), "\(doctor)")
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
