// Keys offered by host, with real OpenSSH (issue 27): ssh binds its agent connection to the
// server's host key (`session-bind@openssh.com`), the agent finds the host in known_hosts, and
// the key bound to that host is offered first, keys bound elsewhere not at all. The server
// allows 3 tries; six keys for no host stand in the vault before the right one, which without
// the binding is "Too many authentication failures".

import Foundation
import Testing
#if canImport(Glibc)
    import Glibc
#endif

@Suite("SSH keys offered by host, with OpenSSH")
struct SSHHostBindingProgramTests {
    static let alias = "pwtui-test-host"

    @Test(
        "the key bound to the host ssh connects to is offered first and a key bound elsewhere not at all; hashed known_hosts too; an unknown host key is offered the unbound keys first",
        .enabled(if: SSHAgentProgramTests.isRoot, "needs root: sshd"))
    func offeredByHost() throws {
        let sandbox = try Sandbox.withVault()
        defer { sandbox.stopAgent() }
        // The agent reads the known_hosts of its own HOME: the sandbox's.
        let home = ["HOME": sandbox.root]
        let started = try sandbox.pwtui(["agent", "start"], password: .none, environment: home, timeout: .seconds(15))
        try #require(started.exitCode == 0, "\(started)")
        try #require(try sandbox.pwtui(["unlock"]).exitCode == 0)

        func generate(_ title: String, hosts: [String] = []) throws -> String {
            let made = try sandbox.pwtui(
                ["ssh", "generate", "--title", title, "--confirm", "never"] + hosts.flatMap { ["--host", $0] })
            try #require(made.exitCode == 0, "\(made)")
            return made.out
        }
        for index in 1 ... 6 { _ = try generate("decoy \(index)") }
        _ = try generate("elsewhere", hosts: ["elsewhere.example"])
        let right = try generate("right key", hosts: [Self.alias])

        let keys = sandbox.root + "/keys"
        try FileManager.default.createDirectory(atPath: keys, withIntermediateDirectories: true)
        try right.write(toFile: keys + "/authorized_keys", atomically: true, encoding: .utf8)
        // Host keys of the three types the agent checks a binding's signature with.
        for type in ["rsa", "ecdsa"] {
            let made = try sandbox.run(
                "/usr/bin/ssh-keygen", ["-q", "-t", type, "-N", "", "-f", keys + "/host_" + type])
            try #require(made.exitCode == 0, "\(made)")
        }
        let server = try TestSSHServer.start(
            sandbox, directory: keys, passwords: false, rootLogin: "prohibit-password",
            settings: "MaxAuthTries 3\nHostKey \(keys)/host_rsa\nHostKey \(keys)/host_ecdsa")
        defer { server.process.signal(SIGKILL) }
        let knownHosts = sandbox.root + "/.ssh/known_hosts"
        try FileManager.default.createDirectory(atPath: sandbox.root + "/.ssh", withIntermediateDirectories: true)
        let known = try ["host", "host_rsa", "host_ecdsa"].map { name in
            let key = try String(contentsOfFile: keys + "/" + name + ".pub", encoding: .utf8).split(separator: " ")
            return "\(Self.alias) \(key[0]) \(key[1])\n"
        }
        try known.joined().write(toFile: knownHosts, atomically: true, encoding: .utf8)

        let socket = try sandbox.pwtui(["ssh", "socket"], password: .none).out.trimmingCharacters(in: .newlines)
        func login(knownHosts: String, hostKeyAlgorithm: String = "ssh-ed25519") throws -> (
            result: RunResult, offered: [String]
        ) {
            let user = String(cString: getpwuid(getuid()).pointee.pw_name)
            let checking = knownHosts == "/dev/null" ? "no" : "yes"
            let result = try sandbox.run(
                "/usr/bin/ssh",
                [
                    "-v", "-F", "/dev/null", "-p", server.port, "-o", "HostKeyAlias=\(Self.alias)",
                    "-o", "HostKeyAlgorithms=\(hostKeyAlgorithm)",
                    "-o", "UserKnownHostsFile=\(knownHosts)", "-o", "StrictHostKeyChecking=\(checking)",
                    "-o", "IdentityAgent=\(socket)", "-o", "PasswordAuthentication=no",
                    "-o", "KbdInteractiveAuthentication=no", "-o", "BatchMode=yes", "-o", "ConnectTimeout=10",
                    "\(user)@127.0.0.1", "echo logged-in",
                ], environment: home.merging(["SSH_AUTH_SOCK": ""]) { $1 }, timeout: .seconds(30))
            // ssh -v names each key it will try, the agent's in its order: "Will attempt key: TITLE
            // TYPE FP agent" (its lines end in CRLF).
            let offered = result.err.split(whereSeparator: \.isNewline).compactMap { line -> String? in
                guard let range = line.range(of: "Will attempt key: "), line.hasSuffix(" agent") else { return nil }
                return line[range.upperBound...].components(separatedBy: " ED25519 ").first
            }
            return (result, offered)
        }

        // The binding's signature is the host key's: each type's is checked.
        for algorithm in ["ssh-ed25519", "rsa-sha2-512", "ecdsa-sha2-nistp256"] {
            let known = try login(knownHosts: knownHosts, hostKeyAlgorithm: algorithm)
            #expect(known.result.exitCode == 0 && known.result.out == "logged-in\n", "\(algorithm): \(known.result)")
            #expect(known.result.err.contains("bound agent to hostkey"), "\(algorithm): \(known.result)")
            #expect(known.offered.first == "right key", "\(algorithm): \(known.offered)")
            #expect(!known.offered.contains("elsewhere"), "another host's key is not offered: \(known.offered)")
            #expect(known.offered.count == 7, "the right key, then the six for any host: \(known.offered)")
        }

        // The same file hashed as `HashKnownHosts yes` writes it: the name can only be tested.
        let hashed = try sandbox.run("/usr/bin/ssh-keygen", ["-H", "-f", knownHosts])
        try #require(hashed.exitCode == 0, "\(hashed)")
        let hashedText = try String(contentsOfFile: knownHosts, encoding: .utf8)
        try #require(hashedText.hasPrefix("|1|") && !hashedText.contains(Self.alias), "\(hashedText)")
        let viaHash = try login(knownHosts: knownHosts)
        #expect(viaHash.result.exitCode == 0, "\(viaHash.result)")
        #expect(viaHash.offered.first == "right key" && !viaHash.offered.contains("elsewhere"), "\(viaHash.offered)")

        // A host key the agent finds in no known_hosts: the keys for any host first, so the three
        // tries run out before the right key: the failure the binding spares a known host.
        try FileManager.default.removeItem(atPath: knownHosts)
        try FileManager.default.removeItem(atPath: knownHosts + ".old")
        let unknown = try login(knownHosts: "/dev/null")
        #expect(unknown.result.exitCode == 255, "\(unknown.result)")
        #expect(unknown.result.err.contains("Too many authentication failures"), "\(unknown.result)")
        #expect(unknown.offered.prefix(6) == ["decoy 1", "decoy 2", "decoy 3", "decoy 4", "decoy 5", "decoy 6"])
        #expect(Set(unknown.offered.suffix(2)) == ["elsewhere", "right key"], "\(unknown.offered)")
    }
}
