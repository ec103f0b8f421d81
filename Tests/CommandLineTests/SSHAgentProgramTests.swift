// pwtui's ssh-agent socket with OpenSSH itself (issue 27): ssh-add lists the vault's key and
// cannot change it, ssh-keygen signs through the agent and its signature verifies, a real ssh
// logs in to an sshd the test starts on 127.0.0.1, and a locked agent signs nothing. The same
// key, exported, logs in through OpenSSH's own ssh-agent too (Benchmarks/ssh/login.py times the
// two against each other).

import Foundation
import Platform
import Testing
import VaultCrypto
import VaultModel
#if canImport(Glibc)
    import Glibc
#endif

@Suite("ssh-agent socket with OpenSSH")
struct SSHAgentProgramTests {
    static var isRoot: Bool { getuid() == 0 }

    /// A sandbox with an unlocked agent and one generated key: its authorized_keys line, its id
    /// and the ssh-agent socket.
    /// `type` is `ssh generate`'s arguments for the key's type (none: Ed25519), `prefix` how its
    /// line starts (the type and the blob's first base64 digits, which spell the type again).
    /// `confirm`: its approval policy; `never` where approval is not what is tested (the test's
    /// programs have no terminal, and would be refused).
    static func withKey(
        _ sandbox: Sandbox, type: [String] = [], prefix: String = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI",
        confirm: String = "never"
    ) throws -> (line: String, id: String, socket: String) {
        try sandbox.startUnlockedAgent()
        let generated = try sandbox.pwtui(
            ["ssh", "generate", "--title", "pwtui test key", "--host", "127.0.0.1", "--confirm", confirm] + type)
        try #require(generated.exitCode == 0, "\(generated)")
        let line = generated.out
        #expect(line.hasPrefix(prefix) && line.hasSuffix(" pwtui test key\n"), "\(line)")
        let listed = try sandbox.pwtui(["ssh", "list", "--format", "json"])
        let keys = try parseJSONArray(listed.stdout)
        let id = try #require(keys.first?["id"] as? String)
        let socket = try sandbox.pwtui(["ssh", "socket"], password: .none).out
            .trimmingCharacters(in: .newlines)
        #expect(socket == sandbox.root + "/xdg/runtime/pwtui/ssh-agent.sock")
        return (line, id, socket)
    }

    @Test(
        "ssh-add -L lists the key as ssh export prints it; ssh-keygen -Y sign through the agent verifies; ssh-add cannot add or remove; locked, the key is listed but nothing signed without a terminal"
    )
    func sshAddAndSigning() throws {
        let sandbox = try Sandbox.withVault()
        defer { sandbox.stopAgent() }
        let (line, id, socket) = try Self.withKey(sandbox)
        let agent = ["SSH_AUTH_SOCK": socket, "HOME": sandbox.root]

        let listed = try sandbox.run("/usr/bin/ssh-add", ["-L"], environment: agent)
        #expect(listed.exitCode == 0 && listed.out == line, "\(listed)")
        let exported = try sandbox.pwtui(["ssh", "export", id])
        #expect(exported.exitCode == 0 && exported.out == listed.out, "\(exported)")

        let (publicKey, message) = try Self.signAndVerify(sandbox, line: line, agent: agent)

        // A client may not change the keys: removing all, and adding one from a file, fail.
        let removed = try sandbox.run("/usr/bin/ssh-add", ["-D"], environment: agent)
        #expect(removed.exitCode != 0, "\(removed)")
        let other = sandbox.root + "/other"
        let made = try sandbox.run("/usr/bin/ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", other])
        try #require(made.exitCode == 0, "\(made)")
        let added = try sandbox.run("/usr/bin/ssh-add", [other], environment: agent)
        #expect(added.exitCode != 0, "\(added)")
        let still = try sandbox.run("/usr/bin/ssh-add", ["-L"], environment: agent)
        #expect(still.out == line, "\(still)")

        // Locked: the key is still listed (the identity store's public half), but no signature:
        // the master password would be asked on the requester's terminal, and it has none.
        let lock = try sandbox.pwtui(["agent", "lock"], password: .none)
        try #require(lock.exitCode == 0, "\(lock)")
        let lockedList = try sandbox.run("/usr/bin/ssh-add", ["-L"], environment: agent)
        #expect(lockedList.exitCode == 0 && lockedList.out == line, "\(lockedList)")
        try FileManager.default.removeItem(atPath: message + ".sig")
        let lockedSign = try sandbox.run(
            "/usr/bin/ssh-keygen", ["-Y", "sign", "-f", publicKey, "-n", "file", message], environment: agent)
        #expect(lockedSign.exitCode != 0, "\(lockedSign)")
        #expect(!FileManager.default.fileExists(atPath: message + ".sig"))
        #expect(try sandbox.pwtui(["agent", "status"], password: .none).exitCode == 75, "still locked")

        // ssh-add -X unlocks with the master password (ssh-add asks through SSH_ASKPASS here),
        // never with another; ssh-add -x locks again.
        func sshAdd(_ option: String, password: String) throws -> RunResult {
            let askpass = sandbox.root + "/askpass-\(option)"
            try "#!/bin/sh\nprintf '%s\\n' '\(password)'\n".write(toFile: askpass, atomically: true, encoding: .utf8)
            _ = chmod(askpass, 0o700)
            return try sandbox.run(
                "/usr/bin/ssh-add", [option],
                environment: agent.merging(["SSH_ASKPASS": askpass, "SSH_ASKPASS_REQUIRE": "force", "DISPLAY": ""]) {
                    $1
                })
        }
        let wrong = try sshAdd("-X", password: "not the master password")
        #expect(wrong.exitCode != 0, "\(wrong)")
        let unlocked = try sshAdd("-X", password: sandbox.password)
        #expect(unlocked.exitCode == 0, "\(unlocked)")
        #expect(try sandbox.run("/usr/bin/ssh-add", ["-L"], environment: agent).out == line)
        let relocked = try sshAdd("-x", password: "a lock password")
        #expect(relocked.exitCode == 0, "\(relocked)")
        let afterLock = try sandbox.pwtui(["agent", "status"], password: .none)
        #expect(afterLock.exitCode == 75, "pwtui's agent is locked too: \(afterLock)")
    }

    @Test(
        "another uid that reaches the socket is cut off before anything is read",
        .enabled(if: isRoot, "needs root: runuser to another user"))
    func anotherUser() throws {
        let sandbox = try Sandbox.withVault()
        defer { sandbox.stopAgent() }
        let (line, _, socket) = try Self.withKey(sandbox)
        // The directory's 0700 and the socket's 0600 are the first fences; opened here, so that
        // only the server's own check of the peer's uid stands between nobody and the keys.
        for directory in [
            sandbox.root, sandbox.root + "/xdg", sandbox.root + "/xdg/runtime", sandbox.root + "/xdg/runtime/pwtui",
        ] {
            _ = chmod(directory, 0o755)
        }
        _ = chmod(socket, 0o666)
        let mine = try sandbox.run("/usr/bin/ssh-add", ["-L"], environment: ["SSH_AUTH_SOCK": socket])
        #expect(mine.exitCode == 0 && mine.out == line, "\(mine)")
        let theirs = try sandbox.run(
            "/usr/sbin/runuser", ["-u", "nobody", "--", "/usr/bin/ssh-add", "-L"],
            environment: ["SSH_AUTH_SOCK": socket, "HOME": "/"])
        #expect(theirs.exitCode != 0 && !theirs.out.contains("ssh-ed25519"), "\(theirs)")
        // Cut off, not answered: an agent that answered with no keys would say "has no identities"
        // (exit 1); the connection closed under it is "communication with agent failed" or, when
        // the close comes while it still writes, "Broken pipe".
        #expect(!theirs.err.contains("has no identities") && !theirs.err.isEmpty, "\(theirs)")
    }

    /// An sshd on 127.0.0.1 that lets this user in with the key whose `authorized_keys` line
    /// is `line`, keys only; the caller kills it.
    static func sshd(_ sandbox: Sandbox, authorizing line: String) throws -> (port: String, process: Child) {
        let keys = sandbox.root + "/keys"
        try FileManager.default.createDirectory(atPath: keys, withIntermediateDirectories: true)
        try line.write(toFile: keys + "/authorized_keys", atomically: true, encoding: .utf8)
        return try TestSSHServer.start(sandbox, directory: keys, passwords: false, rootLogin: "prohibit-password")
    }

    /// `ssh user@127.0.0.1 echo logged-in` with only the agent at `agentSocket` to sign.
    static func login(_ sandbox: Sandbox, port: String, through agentSocket: String) throws -> RunResult {
        let user = String(cString: getpwuid(getuid()).pointee.pw_name)
        return try sandbox.run(
            "/usr/bin/ssh",
            [
                "-F", "/dev/null", "-p", port, "-o", "UserKnownHostsFile=/dev/null", "-o",
                "StrictHostKeyChecking=no", "-o", "LogLevel=ERROR", "-o", "IdentityAgent=\(agentSocket)",
                "-o", "PasswordAuthentication=no", "-o", "KbdInteractiveAuthentication=no", "-o", "BatchMode=yes",
                "-o", "ConnectTimeout=10", "\(user)@127.0.0.1", "echo logged-in",
            ], environment: ["HOME": sandbox.root, "SSH_AUTH_SOCK": ""], timeout: .seconds(30))
    }

    /// `ssh-keygen -Y sign` of a message through the agent (ssh-keygen signs with the agent when
    /// given the public key and SSH_AUTH_SOCK), then `-Y verify` of it and of a changed message.
    /// The public key's file and the message's: the signature is the message's path + ".sig".
    static func signAndVerify(_ sandbox: Sandbox, line: String, agent: [String: String]) throws -> (
        publicKey: String, message: String
    ) {
        let publicKey = sandbox.root + "/key.pub"
        let message = sandbox.root + "/message"
        let allowed = sandbox.root + "/allowed_signers"
        try line.write(toFile: publicKey, atomically: true, encoding: .utf8)
        _ = chmod(publicKey, 0o600)
        try "release 1.0\n".write(toFile: message, atomically: true, encoding: .utf8)
        try "tester@example.org \(line)".write(toFile: allowed, atomically: true, encoding: .utf8)
        let signed = try sandbox.run(
            "/usr/bin/ssh-keygen", ["-Y", "sign", "-f", publicKey, "-n", "file", message], environment: agent)
        #expect(signed.exitCode == 0, "\(signed)")
        let verify = ["-Y", "verify", "-f", allowed, "-I", "tester@example.org", "-n", "file", "-s", message + ".sig"]
        let verified = try sandbox.run("/usr/bin/ssh-keygen", verify, stdin: .text("release 1.0"))
        #expect(verified.exitCode == 0 && verified.out.contains("Good \"file\" signature"), "\(verified)")
        let forged = try sandbox.run("/usr/bin/ssh-keygen", verify, stdin: .text("release 1.1"))
        #expect(forged.exitCode != 0, "\(forged)")
        return (publicKey, message)
    }

    @Test(
        "a real ssh login to a local sshd with the key in pwtui's agent, none when locked; the exported key logs in through ssh-agent",
        .enabled(if: isRoot, "needs root: sshd"))
    func sshLogin() throws {
        let sandbox = try Sandbox.withVault()
        defer { sandbox.stopAgent() }
        let (line, id, socket) = try Self.withKey(sandbox)
        let server = try Self.sshd(sandbox, authorizing: line)
        defer { server.process.signal(SIGKILL) }
        func login(through agentSocket: String) throws -> RunResult {
            try Self.login(sandbox, port: server.port, through: agentSocket)
        }
        let loggedIn = try login(through: socket)
        #expect(loggedIn.exitCode == 0 && loggedIn.out == "logged-in\n", "\(loggedIn)")

        let lock = try sandbox.pwtui(["agent", "lock"], password: .none)
        try #require(lock.exitCode == 0, "\(lock)")
        let refused = try login(through: socket)
        #expect(refused.exitCode == 255 && refused.err.contains("Permission denied"), "\(refused)")
        let unlock = try sandbox.pwtui(["unlock"])
        try #require(unlock.exitCode == 0, "\(unlock)")

        // The same key in OpenSSH's own ssh-agent, from `ssh export --private` (`get` hands out no
        // private key), logs in as well: what the vault keeps is the key OpenSSH knows.
        #expect(try sandbox.pwtui(["get", "--id", id]).exitCode == 64, "get hands out no private key")
        let keyFile = sandbox.root + "/openssh-key"
        let exported = try sandbox.pwtui(["ssh", "export", id, "--private", "--output", keyFile])
        try #require(exported.exitCode == 0, "\(exported)")
        let openSSHSocket = sandbox.root + "/openssh-agent.sock"
        let openSSHAgent = try sandbox.start("/usr/bin/ssh-agent", ["-D", "-a", openSSHSocket])
        defer { openSSHAgent.signal(SIGKILL) }
        // The socket's file exists from its bind, before ssh-agent listens on it: wait for an answer
        // (`ssh-add -l`: 1 for no keys, 2 while nothing listens).
        try #require(
            poll(timeout: .seconds(10), every: .milliseconds(20)) {
                (try? sandbox.run("/usr/bin/ssh-add", ["-l"], environment: ["SSH_AUTH_SOCK": openSSHSocket]))?
                    .exitCode == 1
            })
        let added = try sandbox.run("/usr/bin/ssh-add", ["-q", keyFile], environment: ["SSH_AUTH_SOCK": openSSHSocket])
        try #require(added.exitCode == 0, "\(added)")
        let theirs = try sandbox.run("/usr/bin/ssh-add", ["-L"], environment: ["SSH_AUTH_SOCK": openSSHSocket])
        #expect(theirs.out == line, "the vault's key is the same key in OpenSSH: \(theirs)")
        let throughOpenSSH = try login(through: openSSHSocket)
        #expect(throughOpenSSH.exitCode == 0 && throughOpenSSH.out == "logged-in\n", "\(throughOpenSSH)")
    }
}
