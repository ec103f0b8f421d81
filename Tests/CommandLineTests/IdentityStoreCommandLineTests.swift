// The credential identity store seen from outside, where it needs processes: saves killed with
// SIGKILL never leave a store that suggests what the vault does not hold (suggest's exit codes as a
// shell sees them). Kept, rebuilt, secret-free and switched off: in process
// (CommandsTests/IdentityStoreInProcessTests).

import Foundation
import Testing
#if canImport(Glibc)
    import Glibc
#endif

@Suite("Identity store and suggest")
struct IdentityStoreCommandLineTests {
    /// The vault's store (one file per vault); a path that does not exist when there is none.
    func storePath(_ sandbox: Sandbox) -> String {
        sandbox.identityStoreFiles().first ?? sandbox.root + "/xdg/state/pwtui/identities/none"
    }

    func suggest(_ sandbox: Sandbox, _ service: String) throws -> RunResult {
        try sandbox.pwtui(["suggest", service, "--format", "json"], password: .none)
    }

    @Test("kill -9 during saves never leaves a store that suggests what the vault does not hold")
    func consistentAfterKills() throws {
        let sandbox = try Sandbox.withVault()
        let pwtui = try Binaries.require(Binaries.pwtui)
        var random = SystemRandomNumberGenerator()
        for round in 0 ..< 25 {
            let child = try sandbox.start(
                pwtui, ["add", "n\(round).example", "--username", "u\(round)", "--master-password-fd", "3"],
                stdin: .text("secret-\(round)"), descriptors: [3: .text(sandbox.password)])
            usleep(UInt32.random(in: 40_000 ... 160_000, using: &random))
            child.signal(SIGKILL)
            _ = child.wait(timeout: .seconds(10))
            let suggested = try suggest(sandbox, "n\(round).example")
            #expect(suggested.exitCode == 0 || suggested.exitCode == 75, "current, or missing/stale: \(suggested)")
            guard suggested.exitCode == 0,
                try parseJSONArray(suggested.stdout).contains(where: { $0["username"] as? String == "u\(round)" })
            else { continue }
            let listed = try sandbox.listJSON().compactMap { $0["username"] as? String }
            #expect(listed.contains("u\(round)"), "the store suggests u\(round) only if the vault holds it")
        }
    }
}
