// init and passwd refuse a master password under the minimum (issue 16), through the binary: only
// the exit codes a shell sees, with the passwords on descriptors the child inherits. The ratings
// and the messages are tested in process (CommandsTests/PasswordStrengthInProcessTests).

import Foundation
import Testing

@Suite("Master password strength on the command line")
struct PasswordStrengthCommandLineTests {
    @Test(
        "exit codes end to end: init of a weak password 64 and no vault; passwd to a weak one from descriptor 4: 64, 0 with --allow-weak"
    )
    func exitCodes() throws {
        let sandbox = try Sandbox()
        let refused = try sandbox.pwtui(["init", "--kdf", "interactive"], password: .text("Password1234!"))
        #expect(refused.exitCode == 64 && refused.err.contains("--allow-weak"), "\(refused)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.vault), "no vault is created")

        let withVault = try Sandbox.withVault(Login(["github.com"], username: "alice", secret: "s3cret"))
        let weak = try withVault.pwtui(["passwd", "--new-master-password-fd", "4"], descriptors: [4: .text("hunter2")])
        #expect(weak.exitCode == 64 && weak.err.contains("too weak"), "\(weak)")
        let kept = try withVault.pwtui(
            ["passwd", "--new-master-password-fd", "4", "--allow-weak"], descriptors: [4: .text("hunter2")])
        #expect(kept.exitCode == 0, "\(kept)")
        #expect(try withVault.pwtui(["get", "github.com"], password: .text("hunter2")).out == "s3cret\n")
    }
}
