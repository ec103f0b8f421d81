// init and passwd say how strong the master password is (issue 9, fix 9), as the wizard does.

import Foundation
import Testing

@Suite("Master password strength on the command line")
struct PasswordStrengthCommandLineTests {
    @Test("init rates Password1234! weak and names why; passwd rates a five-word passphrase strong")
    func initAndPasswdRateTheMasterPassword() throws {
        let sandbox = try Sandbox()
        let created = try sandbox.pwtui(["init", "--kdf", "interactive"], password: .text("Password1234!"))
        #expect(created.exitCode == 0, "\(created)")
        #expect(created.err.contains("Master password strength: weak (about "), "\(created)")
        #expect(created.err.contains("a common word or password"), "\(created)")
        #expect(!created.err.contains("Password1234!"), "the password itself is never shown")

        let changed = try sandbox.pwtui(["passwd", "--new-master-password-fd", "4"], password: .text("Password1234!"),
                                        descriptors: [4: .text("tiger lamp orbit velvet seven")])
        #expect(changed.exitCode == 0, "\(changed)")
        #expect(changed.err.contains("New master password strength: strong (about "), "\(changed)")
    }
}
