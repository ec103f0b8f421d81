import Foundation
import PwtuiTestSupport
import Testing

/// One-time codes through the real binary: the key goes in on stdin (a real pipe, never argv), the
/// code that comes out is the one Python's hmac computes, and the exit codes a shell sees. The rest
/// (edit and remove a key, the best match with a key, bad keys) is tested in process
/// (CommandsTests/TotpInProcessTests).
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

    @Test("end to end: add --totp from a pipe, totp prints the code Python computes (0); no key 1; a bad key 64")
    func exitCodes() throws {
        let sandbox = try Sandbox.withVault(Login(["example.com"], username: "bob", secret: "pw"))
        let add = try sandbox.pwtui(
            ["add", "github.com", "--username", "alice", "--totp"], stdin: "the password\n\(Self.uri)\n")
        #expect(add.exitCode == 0, "\(add)")
        let totp = try sandbox.pwtui(["totp", "github.com"])
        let expected = try Self.expectedCodes()
        #expect(totp.exitCode == 0 && expected.contains(totp.out.trimmingCharacters(in: .newlines)), "\(totp)")
        let none = try sandbox.pwtui(["totp", "example.com"])
        #expect(none.exitCode == 1 && none.err.contains("--totp"), "\(none)")
        let bad = try sandbox.pwtui(["edit", "example.com", "--totp"], stdin: "SECRET-WITH-1-AND-8\n")
        #expect(bad.exitCode == 64 && !bad.err.contains("SECRET-WITH"), "\(bad)")
    }
}
