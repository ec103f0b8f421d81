import Foundation
import Testing

/// Built-in equivalent groups through the binary: listed as such, used by `get`, turned off and on.
@Suite("Built-in equivalents on the command line")
struct BuiltInEquivalentsCommandTests {
    @Test("equivalents list marks built-in groups; off stops their matching and says so in the list; on restores it")
    func offAndOn() throws {
        let sandbox = try Sandbox.withVault(Login(["envato.com"], username: "author", secret: "envato-pw"))
        let listed = try sandbox.pwtui(["equivalents", "list"], password: .none)
        #expect(
            listed.out.contains("envato.com graphicriver.net")
                && listed.out.contains("themeforest.net tutsplus.com videohive.net  (built in)\n"),
            "\(listed.out.prefix(300))")
        let get = try sandbox.pwtui(["get", "themeforest.net"])
        #expect(get.exitCode == 0 && get.out == "envato-pw\n", "\(get)")
        let off = try sandbox.pwtui(["equivalents", "off", "themeforest.net"], password: .none)
        #expect(off.exitCode == 0 && off.err.contains("off"), "\(off)")
        #expect(
            try sandbox.pwtui(["equivalents", "list"], password: .none).out.contains("videohive.net  (built in, off)\n")
        )
        #expect(try sandbox.pwtui(["get", "themeforest.net"]).exitCode == 1, "off: no match")
        #expect(try sandbox.pwtui(["equivalents", "on", "envato.com"], password: .none).exitCode == 0)
        #expect(try sandbox.pwtui(["get", "themeforest.net"]).out == "envato-pw\n")
        let unknown = try sandbox.pwtui(["equivalents", "off", "example.org"], password: .none)
        #expect(unknown.exitCode == 1 && unknown.err.contains("no built-in group"), "\(unknown)")
    }
}
