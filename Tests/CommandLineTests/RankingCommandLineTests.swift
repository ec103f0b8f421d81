// Ranking through the real binary: only the exit codes a shell sees (a non-match is 1 with nothing
// on stdout, an invalid service 64, equivalents' argument check 64). Tiers, equivalents, the use
// history and a missing Public Suffix List are tested in process (CommandsTests/RankingInProcessTests).

import Foundation
import Testing

@Suite("Ranking on the command line")
struct RankingCommandLineTests {
    @Test(
        "exit codes end to end: a match 0, a non-match 1 with empty stdout, an invalid service 64, equivalents add of one domain 64, rm of an unknown 1"
    )
    func exitCodes() throws {
        let sandbox = try Sandbox.withVault(Login(["github.com"], username: "parent", secret: "p-parent"))
        #expect(try sandbox.pwtui(["get", "api.github.com"]).out == "p-parent\n")
        let none = try sandbox.pwtui(["get", "github.io"])
        #expect(none.exitCode == 1 && none.stdout.isEmpty, "\(none)")
        let invalid = try sandbox.pwtui(["add", "*.co.uk", "--username", "u"], stdin: "secret")
        #expect(invalid.exitCode == 64 && invalid.err.contains("co.uk"), "\(invalid)")
        #expect(try sandbox.pwtui(["equivalents", "add", "only-one.example"]).exitCode == 64)
        #expect(try sandbox.pwtui(["equivalents", "rm", "nowhere.example"]).exitCode == 1)
    }
}
