// One identity store per vault (issue 9, fix 3), through the binary: the same vault named another
// way — through a symlink, or relative to the process's working directory — finds the same store.
// Two vaults keeping their own stores, and an old single store replaced, are tested in process
// (CommandsTests/PerVaultIdentityStoreInProcessTests).

import Foundation
import Testing

extension Sandbox {
    /// The identity stores in `$XDG_STATE_HOME/pwtui/identities/`, one file per vault.
    func identityStoreFiles() -> [String] {
        let directory = root + "/xdg/state/pwtui/identities"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.filter { !$0.hasPrefix(".") && !$0.hasSuffix(".key") && !$0.hasSuffix(".journal") }.sorted().map {
            directory + "/" + $0
        }
    }
}

@Suite("One identity store per vault")
struct PerVaultIdentityStoreTests {
    @Test("the same vault named another way (relative, through a symlink) finds the same store")
    func canonicalPath() throws {
        let sandbox = try Sandbox.withVault(Login(["github.com"], username: "alice", secret: "s1"))
        let link = sandbox.root + "/link.pwtui"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: sandbox.vault)
        let throughLink = try sandbox.pwtui(["suggest", "github.com", "--vault", link], password: .none)
        #expect(throughLink.exitCode == 0 && throughLink.out.contains("alice"), "\(throughLink)")
        let relative = try sandbox.run(
            "/bin/sh",
            [
                "-c", "cd \"$1\" && exec \"$2\" suggest github.com --vault ./vault/../vault/vault.pwtui",
                "sh", sandbox.root, try Binaries.require(Binaries.pwtui),
            ])
        #expect(relative.exitCode == 0 && relative.out.contains("alice"), "\(relative)")
        #expect(sandbox.identityStoreFiles().count == 1)
    }
}
