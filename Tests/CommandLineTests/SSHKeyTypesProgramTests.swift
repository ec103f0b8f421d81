// RSA and ECDSA P-256 keys made by `pwtui ssh generate --type` and served by pwtui's agent, with
// OpenSSH itself (issue 27): ssh-add lists them as `ssh export` prints them, ssh-keygen -Y signs
// through the agent and verifies, and a real ssh logs in to an sshd the test starts (for RSA
// OpenSSH asks for rsa-sha2-512 or -256, never SHA-1). RSA at 2048 bits: 3072 takes longer to
// make and tests nothing more.

import Foundation
import Platform
import Testing
#if canImport(Glibc)
    import Glibc
#endif

@Suite("ssh key types with OpenSSH")
struct SSHKeyTypesProgramTests {
    static let types: [(arguments: [String], prefix: String)] = [
        (["--type", "rsa", "--bits", "2048"], "ssh-rsa AAAAB3NzaC1yc2E"),
        (["--type", "ecdsa"], "ecdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTY"),
    ]

    @Test(
        "ssh-add -L equals ssh export; ssh-keygen -Y sign through the agent verifies; a real ssh login",
        .enabled(if: SSHAgentProgramTests.isRoot, "needs root: sshd"), arguments: [0, 1])
    func openSSH(_ index: Int) throws {
        let (type, prefix) = Self.types[index]
        let sandbox = try Sandbox.withVault()
        defer { sandbox.stopAgent() }
        let (line, id, socket) = try SSHAgentProgramTests.withKey(sandbox, type: type, prefix: prefix)
        let agent = ["SSH_AUTH_SOCK": socket, "HOME": sandbox.root]

        let listed = try sandbox.run("/usr/bin/ssh-add", ["-L"], environment: agent)
        #expect(listed.exitCode == 0 && listed.out == line, "\(listed)")
        let exported = try sandbox.pwtui(["ssh", "export", id])
        #expect(exported.exitCode == 0 && exported.out == listed.out, "\(exported)")

        let (_, message) = try SSHAgentProgramTests.signAndVerify(sandbox, line: line, agent: agent)
        if index == 0 {
            // ssh-keygen asks for rsa-sha2-512 (flag 4): the signature inside the armour names it.
            let armoured = try String(contentsOfFile: message + ".sig", encoding: .utf8)
            let base64 = armoured.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
            let decoded = try #require(Data(base64Encoded: base64))
            #expect(decoded.range(of: Data("rsa-sha2-512".utf8)) != nil)
            #expect(decoded.range(of: Data("rsa-sha2-256".utf8)) == nil)
        }

        let server = try SSHAgentProgramTests.sshd(sandbox, authorizing: line)
        defer { server.process.signal(SIGKILL) }
        let loggedIn = try SSHAgentProgramTests.login(sandbox, port: server.port, through: socket)
        #expect(loggedIn.exitCode == 0 && loggedIn.out == "logged-in\n", "\(loggedIn)")
        // Locked, the same login is refused: the login above was the agent's key, not luck.
        let lock = try sandbox.pwtui(["agent", "lock"], password: .none)
        try #require(lock.exitCode == 0, "\(lock)")
        let refused = try SSHAgentProgramTests.login(sandbox, port: server.port, through: socket)
        #expect(refused.exitCode == 255 && refused.err.contains("Permission denied"), "\(refused)")
    }

    @Test("ssh generate --bits out of range, or for a type without sizes: exit 64 and what is allowed")
    func bits() throws {
        let sandbox = try Sandbox.withVault()
        for (arguments, expected) in [
            (["--type", "rsa", "--bits", "1024"], "2048 to 8192"),
            (["--type", "ecdsa", "--bits", "384"], "RSA keys only"),
        ] {
            let result = try sandbox.pwtui(["ssh", "generate", "--title", "k"] + arguments)
            #expect(result.exitCode == 64 && result.err.contains(expected), "\(arguments): \(result)")
        }
        let listed = try sandbox.pwtui(["ssh", "list"])
        #expect(listed.exitCode == 0 && listed.out.isEmpty, "\(listed)")
    }
}
