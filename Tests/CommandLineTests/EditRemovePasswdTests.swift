// Changing what is in a vault through the command line: only what needs the process — the exit
// codes a shell sees, stdin a real pipe, and passwd's new password on an extra descriptor the
// child inherits (--new-master-password-fd 4). What edit, rm and passwd change (and that no file
// in the vault's directory opens with the old password) is tested in process
// (CommandsTests/EditRemovePasswdInProcessTests).

import Foundation
import Testing

@Suite("edit, rm and passwd")
struct EditRemovePasswdTests {
    @Test(
        "end to end: edit --password from a pipe 0, rm --yes 0 then get 1, passwd from descriptor 4 0 then the old password 77"
    )
    func exitCodes() throws {
        let sandbox = try Sandbox.withVault()
        let id = try sandbox.add(["github.com"], username: "alice", secret: "s3cret")
        try sandbox.add(["gitlab.com"], username: "bob", secret: "other")
        let edit = try sandbox.pwtui(["edit", id, "--password"], stdin: "n3w-s3cret")
        #expect(edit.exitCode == 0 && !edit.out.contains("s3cret") && !edit.err.contains("s3cret"), "\(edit)")
        #expect(try sandbox.pwtui(["get", "github.com"]).out == "n3w-s3cret\n")
        #expect(try sandbox.pwtui(["rm", id, "--yes"]).exitCode == 0)
        let gone = try sandbox.pwtui(["get", "github.com"])
        #expect(gone.exitCode == 1 && gone.stdout.isEmpty, "\(gone)")

        let newPassword = "a much better passphrase"
        let passwd = try sandbox.pwtui(
            ["passwd", "--new-master-password-fd", "4"], descriptors: [4: .text(newPassword)])
        #expect(passwd.exitCode == 0, "\(passwd)")
        let withNew = try sandbox.pwtui(["get", "gitlab.com"], password: .text(newPassword))
        #expect(withNew.exitCode == 0 && withNew.out == "other\n", "\(withNew)")
        #expect(try sandbox.pwtui(["get", "gitlab.com"]).exitCode == 77)
    }
}
