import Foundation
import PwtuiTestSupport
import Testing

/// One-time codes through the real binary: the key goes in on stdin (a real pipe, never argv), the
/// code that comes out is the one Python's hmac computes, and the exit codes a shell sees. The rest
/// (edit and remove a key, the best match with a key, bad keys) is tested in process
/// (CommandsTests/TotpInProcessTests).
@Suite("One-time codes on the command line")
struct TotpCommandTests {
    static let uri = ReferenceOneTimeCodes.uri

    @Test("end to end: add --totp from a pipe, totp prints the code Python computes (0); no key 1; a bad key 64")
    func exitCodes() throws {
        let sandbox = try Sandbox.withVault(Login(["example.com"], username: "bob", secret: "pw"))
        let add = try sandbox.pwtui(
            ["add", "github.com", "--username", "alice", "--totp"], stdin: "the password\n\(Self.uri)\n")
        #expect(add.exitCode == 0, "\(add)")
        let totp = try sandbox.pwtui(["totp", "github.com"])
        let expected = try ReferenceOneTimeCodes.now()
        #expect(totp.exitCode == 0 && expected.contains(totp.out.trimmingCharacters(in: .newlines)), "\(totp)")
        let none = try sandbox.pwtui(["totp", "example.com"])
        #expect(none.exitCode == 1 && none.err.contains("--totp"), "\(none)")
        let bad = try sandbox.pwtui(["edit", "example.com", "--totp"], stdin: "SECRET-WITH-1-AND-8\n")
        #expect(bad.exitCode == 64 && !bad.err.contains("SECRET-WITH"), "\(bad)")
    }
}
