import Foundation
import PwtuiTestSupport
import Testing

/// One-time codes through the real binary: the key goes in on stdin (never argv), and the code
/// that comes out is the one Python's hmac computes for the same key and time.
@Suite("One-time codes on the command line")
struct TotpCommandTests {
    /// RFC 6238's SHA-1 seed, "12345678901234567890", in base32.
    static let uri = "otpauth://totp/GitHub:alice?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&issuer=GitHub&digits=8"

    /// The codes Python's hmac makes for that key now and 30 s either side (a step may turn
    /// between the binary's clock and this one).
    static func expectedCodes(digits: Int = 8, algorithm: String = "sha1") throws -> [String] {
        let python = try ProgramOutput(
            "python3",
            [
                "-c",
                """
                import hmac, hashlib, struct, time
                key = b"12345678901234567890"
                for step in (-1, 0, 1):
                    counter = int(time.time()) // 30 + step
                    mac = hmac.new(key, struct.pack(">Q", counter), hashlib.\(algorithm)).digest()
                    offset = mac[-1] & 15
                    print("%0\(digits)d" % ((struct.unpack(">I", mac[offset:offset + 4])[0] & 0x7fffffff) % 10 ** \(digits)))
                """,
            ])
        return python.text.split(separator: "\n").map(String.init)
    }

    @Test("add --totp from stdin; get --field totp and totp print the code Python computes; json carries it")
    func codesMatchPython() throws {
        let sandbox = try Sandbox.withVault()
        let add = try sandbox.pwtui(
            ["add", "github.com", "--username", "alice", "--totp"], stdin: "the password\n\(Self.uri)\n")
        #expect(add.exitCode == 0, "\(add)")
        let get = try sandbox.pwtui(["get", "github.com", "--field", "totp"])
        #expect(get.exitCode == 0, "\(get)")
        let expected = try Self.expectedCodes()
        #expect(expected.contains(get.out.trimmingCharacters(in: .newlines)), "\(get.out) not in \(expected)")
        let totp = try sandbox.pwtui(["totp", "github.com"])
        #expect(totp.exitCode == 0 && expected.contains(totp.out.trimmingCharacters(in: .newlines)), "\(totp)")
        #expect(!totp.err.contains("valid for"), "seconds left only on a terminal: \(totp.err)")
        let json = try sandbox.pwtui(["get", "github.com", "--field", "json"])
        #expect(json.out.contains("\"password\":\"the password\"") && json.out.contains("\"totp\":\""), "\(json)")
        let password = try sandbox.pwtui(["get", "github.com"])
        #expect(password.out == "the password\n", "the key's line did not become the password")
    }

    @Test(
        "edit --totp takes a bare base32 secret; --remove-totp removes it; a credential without one says how to add it (exit 1)"
    )
    func editAndRemove() throws {
        let sandbox = try Sandbox.withVault(Login(["example.com"], username: "bob", secret: "pw"))
        let edit = try sandbox.pwtui(
            ["edit", "example.com", "--totp"], stdin: "gezd gnbv gy3t qojq gezd gnbv gy3t qojq\n")
        #expect(edit.exitCode == 0, "\(edit)")
        let code = try sandbox.pwtui(["totp", "example.com"])
        #expect(try Self.expectedCodes(digits: 6).contains(code.out.trimmingCharacters(in: .newlines)), "\(code)")
        #expect(try sandbox.pwtui(["edit", "example.com", "--remove-totp"]).exitCode == 0)
        let none = try sandbox.pwtui(["totp", "example.com"])
        #expect(
            none.exitCode == 1 && none.err.contains("has an authenticator key") && none.err.contains("--totp"),
            "\(none)")
    }

    @Test(
        "totp SERVICE takes the best match that has a key, not the best match; totp ID works as show ID does (issue 26, 4)"
    )
    func bestMatchWithAKey() throws {
        let sandbox = try Sandbox.withVault()
        // The better match (a higher rank) has no key; the other account has one.
        try sandbox.add(["github.com"], username: "work", secret: "pw-work", extra: ["--rank", "5"])
        let add = try sandbox.pwtui(
            ["add", "github.com", "--username", "alice", "--totp"], stdin: "pw-alice\n\(Self.uri)\n")
        let id = add.out.trimmingCharacters(in: .whitespacesAndNewlines)
        try #require(add.exitCode == 0, "\(add)")
        #expect(try sandbox.pwtui(["get", "github.com"]).out == "pw-work\n", "the best match has no key")
        let expected = try Self.expectedCodes(digits: 8)
        let code = try sandbox.pwtui(["totp", "github.com"])
        #expect(code.exitCode == 0 && expected.contains(code.out.trimmingCharacters(in: .newlines)), "\(code)")
        for reference in [String(id.prefix(8)), id] {
            let byID = try sandbox.pwtui(["totp", reference])
            #expect(
                byID.exitCode == 0 && expected.contains(byID.out.trimmingCharacters(in: .newlines)),
                "totp \(reference): \(byID)")
        }
        let none = try sandbox.pwtui(["totp", "gitlab.com"])
        #expect(none.exitCode == 1 && none.err.contains("no credential matches gitlab.com"), "\(none)")
    }

    @Test("A key that is not one is a usage error (64) that never echoes it, and nothing is saved")
    func badKeys() throws {
        let sandbox = try Sandbox.withVault(Login(["example.com"], username: "bob", secret: "pw"))
        for bad in [
            "otpauth://hotp/x?secret=GEZDGNBVGY3TQOJQ&counter=3", "SECRET-WITH-1-AND-8",
            "otpauth://totp/x?secret=GEZDGNBV&digits=12",
        ] {
            let edit = try sandbox.pwtui(["edit", "example.com", "--totp"], stdin: bad + "\n")
            #expect(edit.exitCode == 64, "\(bad): \(edit)")
            #expect(!edit.err.contains("GEZDGNBV") && !edit.err.contains("SECRET-WITH"), "\(edit.err)")
        }
        let add = try sandbox.pwtui(["add", "new.example", "--username", "x", "--totp"], stdin: "pw\nnot base32 !\n")
        #expect(add.exitCode == 64, "\(add)")
        #expect(try sandbox.pwtui(["get", "new.example"]).exitCode == 1, "a bad key added nothing")
        #expect(try sandbox.pwtui(["totp", "example.com"]).exitCode == 1)
    }
}
