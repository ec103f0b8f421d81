// `pwtui ssh import` and `ssh export --private` with OpenSSH's and OpenSSL's own programs (issue
// 27): keys made by ssh-keygen (every type, plain and with a passphrase, each cipher ssh-keygen
// offers beyond its default, PEM and PKCS#8) and by `openssl genpkey` are imported, their public
// key is what `ssh-keygen -y` (or OpenSSL) derives from the file, and the agent signs with them
// for `ssh-keygen -Y sign`, verified against the original public key. Files that are not keys
// pwtui keeps, wrong passphrases and damaged files are each refused with their message and exit
// code, the vault unchanged. An exported private key is read by `ssh-keygen -y` and imports back
// into another vault as the same key. Keys are imported with `--confirm never`, so no approval
// is ever asked. Passphrase-protected keys use `-a 2` (bcrypt-pbkdf's default 16 rounds take
// about 1 s in a debug build), except one at the default.

import Foundation
import Platform
import Testing
#if canImport(Glibc)
    import Glibc
#endif

@Suite("ssh import and export --private with OpenSSH")
struct SSHImportProgramTests {
    /// One key file to import: how it is made, and its passphrase.
    struct Case: Sendable, CustomTestStringConvertible {
        enum Maker: Sendable {
            /// `ssh-keygen -q -f FILE -N PASSPHRASE` and these arguments.
            case sshKeygen([String])
            /// `openssl genpkey -algorithm ed25519`, and these arguments.
            case openssl([String])
        }
        let name: String
        let maker: Maker
        let passphrase: String?
        var testDescription: String { name }
    }

    static let passphrase = "a passphrase"

    static let cases: [Case] = [
        Case(name: "ed25519", maker: .sshKeygen(["-t", "ed25519"]), passphrase: nil),
        Case(name: "rsa", maker: .sshKeygen(["-t", "rsa", "-b", "2048"]), passphrase: nil),
        Case(name: "ecdsa", maker: .sshKeygen(["-t", "ecdsa"]), passphrase: nil),
        Case(name: "ed25519 aes256-ctr", maker: .sshKeygen(["-t", "ed25519", "-a", "2"]), passphrase: passphrase),
        Case(
            name: "rsa aes256-ctr", maker: .sshKeygen(["-t", "rsa", "-b", "2048", "-a", "2"]), passphrase: passphrase),
        Case(name: "ecdsa aes256-ctr", maker: .sshKeygen(["-t", "ecdsa", "-a", "2"]), passphrase: passphrase),
        Case(name: "ed25519 aes256-ctr, 16 rounds", maker: .sshKeygen(["-t", "ed25519"]), passphrase: passphrase),
        Case(
            name: "ed25519 aes256-gcm",
            maker: .sshKeygen(["-t", "ed25519", "-a", "2", "-Z", "aes256-gcm@openssh.com"]),
            passphrase: passphrase),
        Case(
            name: "ecdsa chacha20-poly1305",
            maker: .sshKeygen(["-t", "ecdsa", "-a", "2", "-Z", "chacha20-poly1305@openssh.com"]), passphrase: passphrase
        ),
        Case(
            name: "rsa aes128-cbc", maker: .sshKeygen(["-t", "rsa", "-b", "2048", "-a", "2", "-Z", "aes128-cbc"]),
            passphrase: passphrase),
        Case(
            name: "ed25519 aes128-ctr", maker: .sshKeygen(["-t", "ed25519", "-a", "2", "-Z", "aes128-ctr"]),
            passphrase: passphrase),
        Case(
            name: "ed25519 aes192-ctr", maker: .sshKeygen(["-t", "ed25519", "-a", "2", "-Z", "aes192-ctr"]),
            passphrase: passphrase),
        Case(
            name: "ed25519 aes256-cbc", maker: .sshKeygen(["-t", "ed25519", "-a", "2", "-Z", "aes256-cbc"]),
            passphrase: passphrase),
        Case(
            name: "ed25519 aes192-cbc", maker: .sshKeygen(["-t", "ed25519", "-a", "2", "-Z", "aes192-cbc"]),
            passphrase: passphrase),
        Case(name: "rsa PEM (PKCS#1)", maker: .sshKeygen(["-t", "rsa", "-b", "2048", "-m", "PEM"]), passphrase: nil),
        Case(
            name: "rsa PEM (PKCS#1, DEK-Info)", maker: .sshKeygen(["-t", "rsa", "-b", "2048", "-m", "PEM"]),
            passphrase: passphrase),
        Case(name: "ecdsa PEM (EC PRIVATE KEY)", maker: .sshKeygen(["-t", "ecdsa", "-m", "PEM"]), passphrase: nil),
        Case(name: "rsa PKCS8", maker: .sshKeygen(["-t", "rsa", "-b", "2048", "-m", "PKCS8"]), passphrase: nil),
        Case(
            name: "rsa PKCS8 encrypted", maker: .sshKeygen(["-t", "rsa", "-b", "2048", "-m", "PKCS8"]),
            passphrase: passphrase),
        Case(name: "ecdsa PKCS8 encrypted", maker: .sshKeygen(["-t", "ecdsa", "-m", "PKCS8"]), passphrase: passphrase),
        Case(name: "ed25519 openssl PKCS8", maker: .openssl([]), passphrase: nil),
        Case(name: "ed25519 openssl PKCS8 -aes256", maker: .openssl(["-aes256"]), passphrase: passphrase),
    ]

    /// Makes the case's key file at `path`.
    static func make(_ testCase: Case, at path: String, in sandbox: Sandbox) throws {
        let made: RunResult
        switch testCase.maker {
        case .sshKeygen(let arguments):
            made = try sandbox.run(
                "/usr/bin/ssh-keygen",
                ["-q", "-f", path, "-N", testCase.passphrase ?? "", "-C", "original"] + arguments)
        case .openssl(let arguments):
            let pass = testCase.passphrase.map { ["-pass", "pass:\($0)"] } ?? []
            made = try sandbox.run(
                "/usr/bin/openssl", ["genpkey", "-algorithm", "ed25519", "-out", path] + arguments + pass)
        }
        try #require(made.exitCode == 0, "\(made)")
    }

    /// The public key OpenSSH (or, for OpenSSL's Ed25519 files, which OpenSSH 9.2 does not read,
    /// OpenSSL) derives from the file: "type base64".
    static func publicKey(of testCase: Case, at path: String, in sandbox: Sandbox) throws -> String {
        if case .openssl = testCase.maker {
            let pass = testCase.passphrase.map { ["-passin", "pass:\($0)"] } ?? []
            let der = try sandbox.run("/usr/bin/openssl", ["pkey", "-in", path, "-pubout", "-outform", "DER"] + pass)
            try #require(der.exitCode == 0 && der.stdout.count == 44, "\(der)")
            func string(_ bytes: [UInt8]) -> [UInt8] { [0, 0, 0, UInt8(bytes.count)] + bytes }
            let blob = string(Array("ssh-ed25519".utf8)) + string(Array(der.stdout.suffix(32)))
            return "ssh-ed25519 " + Data(blob).base64EncodedString()
        }
        let derived = try sandbox.run("/usr/bin/ssh-keygen", ["-y", "-f", path, "-P", testCase.passphrase ?? ""])
        try #require(derived.exitCode == 0, "\(derived)")
        return typeAndBlob(derived.out)
    }

    /// An authorized_keys line without its comment.
    static func typeAndBlob(_ line: String) -> String {
        line.split(separator: " ").prefix(2).joined(separator: " ").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// `ssh import` with `--confirm never`, the passphrase (when the case has one) on fd 4.
    static func importKey(
        _ path: String, title: String, passphrase: String?, in sandbox: Sandbox,
        password: Sandbox.MasterPassword = .standard
    ) throws -> RunResult {
        var arguments = ["ssh", "import", path, "--title", title, "--confirm", "never"]
        var descriptors: [Int32: Redirect] = [:]
        if let passphrase {
            arguments += ["--passphrase-fd", "4"]
            descriptors[4] = .text(passphrase)
        }
        return try sandbox.pwtui(arguments, password: password, descriptors: descriptors)
    }

    @Test(
        "imported through the agent: the public key is the file's; ssh-keygen -Y sign through the agent verifies",
        arguments: cases)
    func imports(_ testCase: Case) throws {
        let sandbox = try Sandbox.withVault()
        try sandbox.startUnlockedAgent()
        defer { sandbox.stopAgent() }
        let path = sandbox.root + "/id_key"
        try Self.make(testCase, at: path, in: sandbox)
        let expected = try Self.publicKey(of: testCase, at: path, in: sandbox)

        // No --master-password-fd: the unlocked agent takes the change.
        let imported = try Self.importKey(
            path, title: "imported key", passphrase: testCase.passphrase, in: sandbox, password: .none)
        try #require(imported.exitCode == 0, "\(imported)")
        #expect(imported.out == expected + " imported key\n", "\(imported)")
        #expect(imported.err.contains("can be removed"), "\(imported)")
        #expect(FileManager.default.fileExists(atPath: path))

        let socket = sandbox.root + "/xdg/runtime/pwtui/ssh-agent.sock"
        let agent = ["SSH_AUTH_SOCK": socket, "HOME": sandbox.root]
        let listed = try sandbox.run("/usr/bin/ssh-add", ["-L"], environment: agent)
        #expect(listed.exitCode == 0 && listed.out == imported.out, "\(listed)")
        // Verified against the public key derived from the original file.
        _ = try SSHAgentProgramTests.signAndVerify(sandbox, line: expected + " original", agent: agent)
    }

    @Test(
        "refused, each with its message and exit code, the vault unchanged: wrong passphrases, damaged files, keys of other types, public keys, an empty file, no passphrase source"
    )
    func refusals() throws {
        let sandbox = try Sandbox.withVault()
        let before = try #require(FileManager.default.contents(atPath: sandbox.vault))
        func keygen(_ name: String, _ arguments: [String], passphrase: String = "") throws -> String {
            let path = sandbox.root + "/" + name
            let made = try sandbox.run("/usr/bin/ssh-keygen", ["-q", "-f", path, "-N", passphrase] + arguments)
            try #require(made.exitCode == 0, "\(made)")
            return path
        }
        func write(_ name: String, _ bytes: [UInt8]) throws -> String {
            let path = sandbox.root + "/" + name
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            return path
        }
        /// The file with one byte of its encrypted part changed (20 bytes before the end: inside
        /// the ciphertext, before the 16-byte tag).
        func damaged(_ path: String) throws -> String {
            let text = try String(contentsOfFile: path, encoding: .utf8)
            let base64 = text.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
            var body = Array(try #require(Data(base64Encoded: base64)))
            body[body.count - 20] ^= 0x01
            let armoured =
                "-----BEGIN OPENSSH PRIVATE KEY-----\n"
                + Data(body).base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
                + "\n-----END OPENSSH PRIVATE KEY-----\n"
            return try write(URL(fileURLWithPath: path).lastPathComponent + ".damaged", Array(armoured.utf8))
        }

        let ctr = try keygen("ctr", ["-t", "ed25519", "-a", "2"], passphrase: Self.passphrase)
        let pkcs8 = try keygen("pkcs8", ["-t", "ecdsa", "-m", "PKCS8"], passphrase: Self.passphrase)
        let gcm = try keygen(
            "gcm", ["-t", "ed25519", "-a", "2", "-Z", "aes256-gcm@openssh.com"], passphrase: Self.passphrase)
        let chacha = try keygen(
            "chacha", ["-t", "ed25519", "-a", "2", "-Z", "chacha20-poly1305@openssh.com"], passphrase: Self.passphrase)
        let plain = try keygen("plain", ["-t", "ed25519"])
        let plainBytes = Array(try #require(FileManager.default.contents(atPath: plain)))

        let cases: [(what: String, path: String, passphrase: String?, code: Int32, message: String)] = [
            (
                "wrong passphrase (check numbers)", ctr, "not the passphrase", 77,
                "wrong passphrase: the decrypted check numbers differ"
            ),
            ("wrong passphrase (PKCS#8)", pkcs8, "not the passphrase", 77, "wrong passphrase"),
            ("wrong passphrase (GCM)", gcm, "not the passphrase", 77, "authentication tag does not match"),
            ("damaged GCM body", try damaged(gcm), Self.passphrase, 77, "authentication tag does not match"),
            (
                "damaged ChaCha20-Poly1305 body", try damaged(chacha), Self.passphrase, 77,
                "authentication tag does not match"
            ),
            (
                "truncated", try write("truncated", Array(plainBytes.prefix(plainBytes.count / 2))), nil, 65,
                "damaged or cut short"
            ),
            (
                "truncated body",
                try write("cut-body", plainBytes.prefix(120) + Array("\n-----END OPENSSH PRIVATE KEY-----\n".utf8)),
                nil, 65, "damaged or cut short"
            ),
            ("public key", plain + ".pub", nil, 65, "this is a public key, not a private one"),
            ("DSA", try keygen("dsa", ["-t", "dsa"]), nil, 65, "a DSA key"),
            ("DSA PEM", try keygen("dsa-pem", ["-t", "dsa", "-m", "PEM"]), nil, 65, "a DSA key"),
            ("P-384", try keygen("p384", ["-t", "ecdsa", "-b", "384"]), nil, 65, "an ECDSA key on P-384"),
            ("P-521 PKCS8", try keygen("p521", ["-t", "ecdsa", "-b", "521", "-m", "PKCS8"]), nil, 65, "P-521"),
            ("RSA 1024", try keygen("rsa1024", ["-t", "rsa", "-b", "1024"]), nil, 65, "a 1024-bit RSA key"),
            ("empty", try write("empty", []), nil, 65, "the file is empty"),
            ("PuTTY", try write("key.ppk", Array("PuTTY-User-Key-File-3: ssh-ed25519\n".utf8)), nil, 65, "PuTTY"),
            ("no passphrase source, no terminal", ctr, nil, 75, "--passphrase-fd"),
            ("no file", sandbox.root + "/missing", nil, 66, "no file at"),
        ]
        for refusal in cases {
            let result = try Self.importKey(refusal.path, title: "k", passphrase: refusal.passphrase, in: sandbox)
            #expect(
                result.exitCode == refusal.code && result.err.contains(refusal.message) && result.out.isEmpty,
                "\(refusal.what): \(result)")
        }
        #expect(FileManager.default.contents(atPath: sandbox.vault) == before)
        let listed = try sandbox.pwtui(["ssh", "list"])
        #expect(listed.exitCode == 0 && listed.out.isEmpty, "\(listed)")
    }

    @Test(
        "import, export --private, import into another vault: the same key; ssh-keygen -y reads the export, 0600, the title its comment; the master password asked even with the agent unlocked, a wrong one refused",
        arguments: [["-t", "ed25519"], ["-t", "rsa", "-b", "2048"], ["-t", "ecdsa"]])
    func privateExport(_ type: [String]) throws {
        let sandbox = try Sandbox.withVault()
        let original = sandbox.root + "/id_original"
        let made = try sandbox.run("/usr/bin/ssh-keygen", ["-q", "-f", original, "-N", ""] + type)
        try #require(made.exitCode == 0, "\(made)")
        let expected = Self.typeAndBlob(try String(contentsOfFile: original + ".pub", encoding: .utf8))
        let imported = try Self.importKey(original, title: "laptop", passphrase: nil, in: sandbox)
        try #require(imported.exitCode == 0 && Self.typeAndBlob(imported.out) == expected, "\(imported)")
        let listed = try sandbox.pwtui(["ssh", "list", "--format", "json"])
        let id = try #require(try parseJSONArray(listed.stdout).first?["id"] as? String)

        let refused = try sandbox.pwtui(["ssh", "export", id, "--private"], password: .text("not the master password"))
        #expect(refused.exitCode == 77 && refused.out.isEmpty, "\(refused)")
        // An unlocked agent does not stand in for the master password: with no way to ask, 75.
        try sandbox.startUnlockedAgent()
        defer { sandbox.stopAgent() }
        let unasked = try sandbox.pwtui(["ssh", "export", id, "--private"], password: .none)
        #expect(unasked.exitCode == 75 && unasked.out.isEmpty, "\(unasked)")
        let publicOnly = try sandbox.pwtui(["ssh", "export", id], password: .none)
        #expect(publicOnly.exitCode == 0 && Self.typeAndBlob(publicOnly.out) == expected, "\(publicOnly)")

        let file = sandbox.root + "/exported"
        let exported = try sandbox.pwtui(["ssh", "export", id, "--private", "--output", file])
        try #require(exported.exitCode == 0, "\(exported)")
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int)
        #expect(mode == 0o600)
        let derived = try sandbox.run("/usr/bin/ssh-keygen", ["-y", "-f", file])
        #expect(derived.exitCode == 0 && Self.typeAndBlob(derived.out) == expected, "\(derived)")
        #expect(derived.out.hasSuffix(" laptop\n"), "the title is the comment: \(derived)")
        let again = try sandbox.pwtui(["ssh", "export", id, "--private", "--output", file])
        #expect(again.exitCode == 64 && again.err.contains("--force"), "\(again)")

        let toStdout = try sandbox.pwtui(["ssh", "export", id, "--private"])
        #expect(
            toStdout.exitCode == 0 && toStdout.out.hasPrefix("-----BEGIN OPENSSH PRIVATE KEY-----\n"), "\(toStdout)")

        let other = try Sandbox.withVault()
        let reimported = try Self.importKey(file, title: "again", passphrase: nil, in: other)
        #expect(reimported.exitCode == 0 && Self.typeAndBlob(reimported.out) == expected, "\(reimported)")
    }

    @Test(
        "on a terminal: the passphrase is asked without echo and the key imported; export --private to the terminal refused, nothing of the key shown"
    )
    func onATerminal() throws {
        let sandbox = try Sandbox.withVault()
        let path = sandbox.root + "/id_terminal"
        let made = try sandbox.run(
            "/usr/bin/ssh-keygen", ["-q", "-f", path, "-N", Self.passphrase, "-a", "2", "-t", "ed25519"])
        try #require(made.exitCode == 0, "\(made)")
        let expected = try Self.publicKey(
            of: Case(name: "", maker: .sshKeygen([]), passphrase: Self.passphrase), at: path, in: sandbox)
        let pwtui = try Binaries.require(Binaries.pwtui)
        let tmux = try TmuxSession.shellReady(sandbox: sandbox)
        let rc = sandbox.scratch + "/import.rc"
        let out = sandbox.scratch + "/import.out"
        try tmux.enter(
            "'\(pwtui)' ssh import '\(path)' --title typed --confirm never --master-password-fd 3 "
                + "3<<<'\(sandbox.password)' > '\(out)'; echo RC=$? > '\(rc)'")
        try tmux.requirePane("the passphrase asked") { $0.contains("Passphrase for \(path):") }
        try tmux.enter(Self.passphrase)
        #expect(commandResult(rc) == "RC=0\n", "\(tmux.captures.last ?? "")")
        #expect(readBytes(out).map { String(decoding: $0, as: UTF8.self) } == expected + " typed\n")
        for screen in tmux.captures { #expect(!screen.contains(Self.passphrase), "echoed: \(screen)") }

        let listed = try sandbox.pwtui(["ssh", "list", "--format", "json"])
        let id = try #require(try parseJSONArray(listed.stdout).first?["id"] as? String)
        let exportRC = sandbox.scratch + "/export.rc"
        try tmux.enter(
            "clear; '\(pwtui)' ssh export \(id) --private --master-password-fd 3 3<<<'\(sandbox.password)'; "
                + "echo RC=$? > '\(exportRC)'")
        #expect(commandResult(exportRC) == "RC=64\n", "\(tmux.captures.last ?? "")")
        let screen = try tmux.requirePane("the refusal") { $0.contains("not written to a terminal") }
        #expect(!screen.contains("BEGIN OPENSSH PRIVATE KEY"), "\(screen)")
    }
}
