// init and passwd say how strong the master password is (issue 9, fix 9), as the wizard does, and
// refuse one under the minimum unless --allow-weak (issue 16).

import Foundation
import Passwords
import Testing

@Suite("Master password strength on the command line")
struct PasswordStrengthCommandLineTests {
    @Test("init rates Password1234! weak and names why; passwd rates a five-word passphrase strong")
    func initAndPasswdRateTheMasterPassword() throws {
        let sandbox = try Sandbox()
        let created = try sandbox.pwtui(
            ["init", "--kdf", "interactive", "--allow-weak"], password: .text("Password1234!"))
        #expect(created.exitCode == 0, "\(created)")
        #expect(created.err.contains("Master password strength: weak (about "), "\(created)")
        #expect(created.err.contains("a common word or password"), "\(created)")
        #expect(!created.err.contains("Password1234!"), "the password itself is never shown")

        let changed = try sandbox.pwtui(
            ["passwd", "--new-master-password-fd", "4"], password: .text("Password1234!"),
            descriptors: [4: .text("tiger lamp orbit velvet seven")])
        #expect(changed.exitCode == 0, "\(changed)")
        #expect(changed.err.contains("New master password strength: strong (about "), "\(changed)")
    }

    @Test("init refuses a weak master password with 64 and says what would do; --allow-weak keeps it")
    func initRefusesAWeakMasterPassword() throws {
        let sandbox = try Sandbox()
        let refused = try sandbox.pwtui(["init", "--kdf", "interactive"], password: .text("Password1234!"))
        #expect(refused.exitCode == 64, "\(refused)")
        #expect(refused.err.contains("too weak: about "), "\(refused)")
        #expect(refused.err.contains("at least 40"), "says the minimum: \(refused)")
        #expect(refused.err.contains("4 random words"), "says what would be strong enough: \(refused)")
        #expect(refused.err.contains("--allow-weak"), "\(refused)")
        #expect(!refused.err.contains("Password1234!"), "the password itself is never shown")
        #expect(!FileManager.default.fileExists(atPath: sandbox.vault), "no vault is created")

        let kept = try sandbox.pwtui(
            ["init", "--kdf", "interactive", "--allow-weak"], password: .text("Password1234!"))
        #expect(kept.exitCode == 0, "\(kept)")
        #expect(kept.err.contains("--allow-weak"), "says the weak password was kept on purpose: \(kept)")
        #expect(FileManager.default.fileExists(atPath: sandbox.vault))
    }

    @Test("a fair master password (40 bits and more) is accepted without --allow-weak")
    func initAcceptsAFairMasterPassword() throws {
        let sandbox = try Sandbox()
        let created = try sandbox.pwtui(["init", "--kdf", "interactive"], password: .text("a new master password"))
        #expect(created.exitCode == 0, "\(created)")
        #expect(created.err.contains("Master password strength: fair (about "), "\(created)")
    }

    @Test("passwd refuses a weak new master password with 64, the vault unchanged; --allow-weak keeps it")
    func passwdRefusesAWeakMasterPassword() throws {
        let sandbox = try Sandbox.withVault(Login(["github.com"], username: "alice", secret: "s3cret"))
        let before = try Data(contentsOf: URL(fileURLWithPath: sandbox.vault))
        let refused = try sandbox.pwtui(
            ["passwd", "--new-master-password-fd", "4"], descriptors: [4: .text("hunter2")])
        #expect(refused.exitCode == 64, "\(refused)")
        #expect(refused.err.contains("too weak: about ") && refused.err.contains("--allow-weak"), "\(refused)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: sandbox.vault)) == before, "the vault is unchanged")
        #expect(try sandbox.pwtui(["get", "github.com"]).out == "s3cret\n", "the old password still opens it")

        let kept = try sandbox.pwtui(
            ["passwd", "--new-master-password-fd", "4", "--allow-weak"], descriptors: [4: .text("hunter2")])
        #expect(kept.exitCode == 0, "\(kept)")
        #expect(try sandbox.pwtui(["get", "github.com"], password: .text("hunter2")).out == "s3cret\n")
    }
}
