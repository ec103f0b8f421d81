// Options given wrongly say what is wrong, instead of meaning something else: an empty --vault
// is not the default vault, and a descriptor open only for writing is not "not open".

import Foundation
import Testing

@Suite("Option mistakes")
struct OptionMistakeTests {
    @Test(
        "--vault '' (an unset variable) is a usage error, not the default vault",
        arguments: [
            ["list", "--vault", ""], ["get", "github.com", "--vault", ""], ["list", "--config", ""],
        ])
    func emptyPath(_ arguments: [String]) throws {
        let sandbox = try Sandbox.withVault(Login(["github.com"], username: "alice", secret: "s1"))
        let result = try sandbox.pwtui(arguments)
        #expect(result.exitCode == 64, "\(result)")
        #expect(result.err.contains("given an empty one"), "\(result)")
        #expect(result.stdout.isEmpty, "\(result)")
    }

    @Test("--master-password-fd 1 (stdout, open for writing only) says so")
    func writeOnlyDescriptor() throws {
        let sandbox = try Sandbox.withVault()
        let result = try sandbox.pwtui(["get", "example.com", "--master-password-fd", "1"], password: .none)
        #expect(result.exitCode == 64, "\(result)")
        #expect(
            result.err.contains("descriptor 1 is open for writing only") && !result.err.contains("not open"),
            "\(result)")
        let closed = try sandbox.pwtui(["get", "example.com", "--master-password-fd", "9"], password: .none)
        #expect(closed.exitCode == 64 && closed.err.contains("descriptor 9 is not open"), "\(closed)")
    }

    @Test(
        "bare pwtui --vault PATH is plain pwtui on that vault (it was an unknown option, issue 38)",
        arguments: [["--vault"], ["--vault="]])
    func bareVaultOption(_ form: [String]) throws {
        let sandbox = try Sandbox.withVault()
        let path = sandbox.root + "/elsewhere.pwtui"
        let arguments = form == ["--vault"] ? ["--vault", path] : ["--vault=" + path]
        // No terminal here: plain pwtui says so (75), for that vault; never "Unknown option".
        let result = try sandbox.pwtui(arguments, password: .none)
        #expect(result.exitCode == 75, "\(result)")
        #expect(!result.err.contains("Unknown option"), "\(result)")
        let missing = try sandbox.pwtui(["--vault"], password: .none)
        #expect(missing.exitCode == 64 && missing.err.contains("Missing value for '--vault"), "\(missing)")
        let withCommand = try sandbox.pwtui(["--vault", path, "list"], password: .none)
        #expect(withCommand.exitCode == 64, "a command goes first: \(withCommand)")
    }
}
