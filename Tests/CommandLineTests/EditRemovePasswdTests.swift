// Changing what is in a vault through the command line: edit, rm, passwd.

import Foundation
import Testing

@Suite("edit, rm and passwd")
struct EditRemovePasswdTests {
    private func githubVault() throws -> (Sandbox, String) {
        let sandbox = try Sandbox.withVault()
        let id = try sandbox.add(["github.com"], username: "alice", secret: "s3cret")
        return (sandbox, id)
    }

    @Test("edit ID --password reads the new secret from stdin; get returns it")
    func editPassword() throws {
        let (sandbox, id) = try githubVault()
        let edit = try sandbox.pwtui(["edit", id, "--password"], stdin: "n3w-s3cret")
        #expect(edit.exitCode == 0, "\(edit)")
        #expect(!edit.out.contains("s3cret") && !edit.err.contains("s3cret"), "\(edit)")

        let get = try sandbox.pwtui(["get", "github.com"])
        #expect(get.exitCode == 0 && get.out == "n3w-s3cret\n", "\(get)")
        let entries = try sandbox.listJSON()
        #expect(entries.count == 1, "a new secret replaces, it does not add a credential")
        #expect(entries.first?["id"] as? String == id)
    }

    @Test("edit --add-service / --remove-service change what get answers for")
    func editServices() throws {
        let (sandbox, id) = try githubVault()
        #expect(try sandbox.pwtui(["get", "gitlab.com"]).exitCode == 1)

        let add = try sandbox.pwtui(["edit", String(id.prefix(8)), "--add-service", "gitlab.com"])
        #expect(add.exitCode == 0, "\(add)")
        let gitlab = try sandbox.pwtui(["get", "gitlab.com"])
        #expect(gitlab.exitCode == 0 && gitlab.out == "s3cret\n", "\(gitlab)")
        #expect(try sandbox.listJSON().first?["services"] as? [String] == ["github.com", "gitlab.com"])

        let remove = try sandbox.pwtui(["edit", id, "--remove-service", "github.com"])
        #expect(remove.exitCode == 0, "\(remove)")
        #expect(try sandbox.pwtui(["get", "github.com"]).exitCode == 1)
        #expect(try sandbox.pwtui(["get", "gitlab.com"]).out == "s3cret\n")
    }

    @Test("rm ID --yes deletes: get then exits 1 and list is empty")
    func removeWithYes() throws {
        let (sandbox, id) = try githubVault()
        let other = try sandbox.add(["gitlab.com"], username: "bob", secret: "other")

        let remove = try sandbox.pwtui(["rm", id, "--yes"])
        #expect(remove.exitCode == 0, "\(remove)")
        let get = try sandbox.pwtui(["get", "github.com"])
        #expect(get.exitCode == 1 && get.stdout.isEmpty, "\(get)")
        #expect(try sandbox.pwtui(["get", "--id", id]).exitCode == 1)
        #expect(try sandbox.listJSON().compactMap { $0["id"] as? String } == [other], "only the other one is left")
    }

    @Test("passwd: the new password opens the vault, the old one opens no file in its directory")
    func changeMasterPassword() throws {
        let (sandbox, _) = try githubVault()
        // A second save makes a .bak, and a copy named like a save's temporary file plays a
        // saver killed before its rename: both open with the old password until passwd.
        try sandbox.add(["gitlab.com"], username: "bob", secret: "other")
        let staleTemporary = sandbox.vaultDirectory + "/.vault.pwtui.tmp-0123456789ab"
        try FileManager.default.copyItem(atPath: sandbox.vault, toPath: staleTemporary)
        let openableBefore = try filesOpening(sandbox, password: sandbox.password)
        #expect(
            openableBefore.isSuperset(of: ["vault.pwtui", "vault.pwtui.bak", ".vault.pwtui.tmp-0123456789ab"]),
            "the check below must be able to fail: \(openableBefore)")

        let newPassword = "a much better passphrase"
        let passwd = try sandbox.pwtui(
            ["passwd", "--new-master-password-fd", "4"],
            descriptors: [4: .text(newPassword)])
        #expect(passwd.exitCode == 0, "\(passwd)")

        let withNew = try sandbox.pwtui(["get", "github.com"], password: .text(newPassword))
        #expect(withNew.exitCode == 0 && withNew.out == "s3cret\n", "\(withNew)")
        let withOld = try sandbox.pwtui(["get", "github.com"])
        #expect(withOld.exitCode == 77, "\(withOld)")

        let openableAfter = try filesOpening(sandbox, password: sandbox.password)
        #expect(openableAfter.isEmpty, "these files still open with the old password: \(openableAfter)")
        #expect(try filesOpening(sandbox, password: newPassword) == ["vault.pwtui"])
    }

    /// The regular files in the vault's directory that `pwtui get --vault FILE` opens with `password`.
    private func filesOpening(_ sandbox: Sandbox, password: String) throws -> Set<String> {
        var opened: Set<String> = []
        for name in try sandbox.vaultDirectoryFiles().keys {
            let result = try sandbox.pwtui(
                ["get", "github.com", "--vault", sandbox.vaultDirectory + "/" + name],
                password: .text(password))
            if result.exitCode == 0 { opened.insert(name) }
        }
        return opened
    }
}
