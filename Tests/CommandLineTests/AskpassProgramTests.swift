// pwtui-askpass asked by the real programs: git (GIT_ASKPASS, a clone over HTTP with Basic auth
// from Fixtures/git-http-server.py), OpenSSH (SSH_ASKPASS_REQUIRE=force: a password and a key's
// passphrase to an sshd the test starts on 127.0.0.1, ssh-add into a test ssh-agent, and the
// host-key question it must not answer) and sudo (`sudo -A -k` for a user the test creates, with
// the agent running as that user, since an agent serves only its own uid). ssh's and sudo's
// tests need root (a user with a password, sshd, a sudoers entry) and are skipped without it.

import Foundation
import Platform
import Commands
import Testing
import VaultModel
#if canImport(Glibc)
    import Glibc
#endif

@Suite("askpass with git, ssh and sudo")
struct AskpassProgramTests {
    static var isRoot: Bool { getuid() == 0 }

    /// A directory with `pwtui-askpass`, a link to `pwtui` (as `make install` leaves it).
    static func askpass(in directory: String, binary: String) throws -> String {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: directory + "/pwtui-askpass", withDestinationPath: binary)
        return directory + "/pwtui-askpass"
    }

    @Test("git clone over HTTP: GIT_ASKPASS answers username and password from the agent; locked, it answers nothing")
    func gitClone() throws {
        let sandbox = try Sandbox.withVault()
        let (url, origin, server) = try GitCredentialTests().server(sandbox)
        defer { server.signal(SIGKILL) }
        try sandbox.add([origin], username: "alice", secret: "git-secret")
        try sandbox.startUnlockedAgent()
        defer { sandbox.stopAgent() }
        let askpass = try Self.askpass(in: sandbox.root + "/bin", binary: try Binaries.require(Binaries.pwtui))
        func clone(into name: String) throws -> RunResult {
            try sandbox.run(
                "/usr/bin/git", ["-c", "credential.helper=", "clone", "-q", url, sandbox.root + "/" + name],
                environment: [
                    "GIT_ASKPASS": askpass, "GIT_TERMINAL_PROMPT": "0", "GIT_CONFIG_NOSYSTEM": "1",
                    "GIT_CONFIG_GLOBAL": "/dev/null", "HOME": sandbox.root,
                ])
        }
        let cloned = try clone(into: "clone")
        #expect(cloned.exitCode == 0, "\(cloned)")
        #expect(FileManager.default.fileExists(atPath: sandbox.root + "/clone/README"))

        // Locked and no terminal: askpass prints nothing (75), and git gives up instead of
        // sending a guess.
        sandbox.stopAgent()
        let locked = try clone(into: "locked")
        #expect(locked.exitCode != 0, "\(locked)")
        #expect(locked.err.contains("no terminal to ask for the master password"), "\(locked)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.root + "/locked/README"))
    }

    /// A user of this machine with a password, removed at the end (root only).
    final class TestUser {
        let name: String
        let password: String
        private let sandbox: Sandbox

        init(_ sandbox: Sandbox) throws {
            self.sandbox = sandbox
            name = "pwtuia" + String(UInt32.random(in: 0 ..< .max), radix: 16)
            password = "pw-" + UUID().uuidString
            let made = try sandbox.run("/usr/sbin/useradd", ["-m", "-s", "/bin/sh", name])
            try #require(made.exitCode == 0, "\(made)")
            let set = try sandbox.run("/usr/sbin/chpasswd", [], stdin: .text("\(name):\(password)"))
            try #require(set.exitCode == 0, "\(set)")
        }

        deinit {
            _ = try? sandbox.run("/usr/sbin/userdel", ["-r", "-f", name])
        }
    }

    @Test(
        "ssh: a password and a key's passphrase to a local sshd, ssh-add's passphrase; the host-key question is refused",
        .enabled(if: isRoot, "needs root: a user with a password and sshd"))
    func ssh() throws {
        let sandbox = try Sandbox.withVault()
        let user = try TestUser(sandbox)
        let keys = sandbox.root + "/keys"
        try FileManager.default.createDirectory(atPath: keys, withIntermediateDirectories: true)
        for (key, passphrase) in [("host", ""), ("id_login", "login-phrase"), ("id_added", "added-phrase")] {
            let made = try sandbox.run(
                "/usr/bin/ssh-keygen", ["-q", "-t", "ed25519", "-N", passphrase, "-C", key, "-f", keys + "/" + key])
            try #require(made.exitCode == 0, "\(made)")
        }
        try FileManager.default.copyItem(atPath: keys + "/id_login.pub", toPath: keys + "/authorized_keys")
        let (port, sshd) = try TestSSHServer.start(sandbox, directory: keys, passwords: true, rootLogin: "no")
        defer { sshd.signal(SIGKILL) }

        // The vault: the user's password for 127.0.0.1, the login key's passphrase titled with its
        // path, ssh-add's key's titled with its file name.
        try sandbox.add(["127.0.0.1"], username: user.name, secret: user.password)
        for (title, secret) in [(keys + "/id_login", "login-phrase"), ("id_added", "added-phrase")] {
            let added = try sandbox.pwtui(["add", "--title", title], stdin: secret)
            try #require(added.exitCode == 0, "\(added)")
        }
        try sandbox.startUnlockedAgent()
        defer { sandbox.stopAgent() }
        let askpass = try Self.askpass(in: sandbox.root + "/bin", binary: try Binaries.require(Binaries.pwtui))
        let environment = ["SSH_ASKPASS": askpass, "SSH_ASKPASS_REQUIRE": "force", "SSH_AUTH_SOCK": ""]
        let options = [
            "-F", "/dev/null", "-p", port, "-o", "UserKnownHostsFile=/dev/null", "-o", "LogLevel=ERROR",
            "-o", "IdentityAgent=none", "-o", "BatchMode=no", "-o", "ConnectTimeout=10",
        ]
        func ssh(_ extra: [String], _ command: String) throws -> RunResult {
            try sandbox.run(
                "/usr/bin/ssh", options + extra + ["\(user.name)@127.0.0.1", command], environment: environment,
                timeout: .seconds(30))
        }

        let password = try ssh(
            ["-o", "StrictHostKeyChecking=no", "-o", "PubkeyAuthentication=no"], "echo password-accepted")
        #expect(password.exitCode == 0 && password.out == "password-accepted\n", "\(password)")

        let key = try ssh(
            [
                "-o", "StrictHostKeyChecking=no", "-o", "PasswordAuthentication=no", "-o", "IdentitiesOnly=yes",
                "-i", keys + "/id_login",
            ], "echo key-accepted")
        #expect(key.exitCode == 0 && key.out == "key-accepted\n", "\(key)")

        // An unknown host: ssh asks askpass whether to connect; no "yes" is ever given for a person.
        let unknownHost = try ssh(["-o", "StrictHostKeyChecking=ask", "-o", "PubkeyAuthentication=no"], "true")
        #expect(unknownHost.exitCode == 255, "\(unknownHost)")
        #expect(unknownHost.err.contains("Host key verification failed"), "\(unknownHost)")

        // ssh-add's own prompt (`Enter passphrase for PATH:`), into an ssh-agent of the test's.
        let socket = sandbox.root + "/ssh-agent.socket"
        let agent = try sandbox.start("/usr/bin/ssh-agent", ["-D", "-a", socket])
        defer { agent.signal(SIGKILL) }
        try #require(poll(timeout: .seconds(10)) { FileManager.default.fileExists(atPath: socket) })
        let add = try sandbox.run(
            "/usr/bin/ssh-add", [keys + "/id_added"], environment: environment.merging(["SSH_AUTH_SOCK": socket]) { $1 }
        )
        #expect(add.exitCode == 0, "\(add)")
        let listed = try sandbox.run("/usr/bin/ssh-add", ["-l"], environment: ["SSH_AUTH_SOCK": socket])
        #expect(listed.out.contains("id_added"), "\(listed)")
    }

    /// README's and docs/askpass.md's sudo lines up to `sudo -A`, as a shell reads them: the
    /// `export SUDO_ASKPASS=…` line followed by `sudo -A`, and README's one-liner.
    static func documentedSudoLines() throws -> [String] {
        func lines(_ file: String) throws -> [String] {
            try String(contentsOfFile: GitHelperContractTests.packageRoot + "/" + file, encoding: .utf8)
                .split(separator: "\n").map(String.init)
        }
        func withoutComment(_ line: String) -> String {
            String(line.split(separator: "#", maxSplits: 1).first ?? "").trimmingCharacters(in: .whitespaces)
        }
        let exported = try #require(try lines("docs/askpass.md").first { $0.hasPrefix("export SUDO_ASKPASS=") })
        let readme = try #require(try lines("README.md").first { $0.hasPrefix("SUDO_ASKPASS=") })
        let oneLiner = try #require(withoutComment(readme).components(separatedBy: "sudo -A").first)
        return [withoutComment(exported) + "; sudo -A", oneLiner + "sudo -A"]
    }

    @Test("the documented sudo lines are found where the sudo test reads them")
    func documentedSudoLinesAreFound() throws {
        let lines = try Self.documentedSudoLines()
        #expect(
            lines.count == 2 && lines.allSatisfy { $0.contains("SUDO_ASKPASS=") && $0.hasSuffix("sudo -A") }, "\(lines)"
        )
    }

    @Test(
        "sudo -A -k: the user's own agent answers sudo's prompt; locked, sudo gets no password",
        .enabled(if: isRoot, "needs root: a user, a sudoers entry, runuser"))
    func sudo() throws {
        let sandbox = try Sandbox()
        let user = try TestUser(sandbox)
        let sudoers = "/etc/sudoers.d/\(user.name)"
        try "\(user.name) ALL=(root) /usr/bin/id\n".write(toFile: sudoers, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: sudoers) }
        _ = chmod(sudoers, 0o440)

        // The user's own world: binary, vault and XDG directories in a directory it owns (the
        // test's own are root's, mode 0700).
        let home = sandbox.root + "/" + user.name
        for directory in ["bin", "xdg/data", "xdg/config", "xdg/state", "xdg/runtime", "vault"] {
            try FileManager.default.createDirectory(
                atPath: home + "/" + directory, withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
        }
        try FileManager.default.copyItem(atPath: try Binaries.require(Binaries.pwtui), toPath: home + "/bin/pwtui")
        let askpass = try Self.askpass(in: home + "/bin", binary: home + "/bin/pwtui")
        let environment = [
            "HOME": home, "PATH": "/usr/local/bin:/usr/bin:/bin", "XDG_DATA_HOME": home + "/xdg/data",
            "XDG_CONFIG_HOME": home + "/xdg/config", "XDG_STATE_HOME": home + "/xdg/state",
            "XDG_RUNTIME_DIR": home + "/xdg/runtime", "PWTUI_VAULT": home + "/vault/vault.pwtui",
            "SUDO_ASKPASS": askpass,
        ]
        try sandbox.initVault(at: home + "/vault/vault.pwtui")
        let owned = try sandbox.run("/bin/chown", ["-R", user.name, sandbox.root + "/" + user.name])
        try #require(owned.exitCode == 0, "\(owned)")
        _ = chmod(sandbox.root, 0o755)  // the user may pass through to its directory

        /// `program arguments` as the user, with only `environment`.
        func asUser(_ program: String, _ arguments: [String], stdin: String? = nil) throws -> RunResult {
            try sandbox.run(
                "/usr/sbin/runuser",
                ["-u", user.name, "--", "/usr/bin/env", "-i"] + environment.map { "\($0.key)=\($0.value)" }
                    + [program] + arguments,
                stdin: stdin.map { .text($0) }, timeout: .seconds(30))
        }
        let pwtui = home + "/bin/pwtui"
        let start = try asUser(pwtui, ["agent", "start", "--idle-timeout", "5m"])
        try #require(start.exitCode == 0, "\(start)")
        defer { _ = try? asUser(pwtui, ["agent", "stop"]) }
        let unlock = try asUser(pwtui, ["unlock", "--master-password-fd", "0"], stdin: sandbox.password)
        try #require(unlock.exitCode == 0, "\(unlock)")
        // sudo's password is saved for this machine's name, with the user as the username.
        let hostName = try #require(HostName.current())
        let added = try asUser(pwtui, ["add", hostName, "--username", user.name], stdin: user.password)
        try #require(added.exitCode == 0, "\(added)")

        let sudo = try asUser("/usr/bin/sudo", ["-A", "-k", "/usr/bin/id", "-u"])
        #expect(sudo.exitCode == 0 && sudo.out == "0\n", "\(sudo)")

        // The documented lines as written, in a shell with pwtui-askpass on PATH and no
        // SUDO_ASKPASS of the test's (issue 38: `SUDO_ASKPASS=pwtui-askpass` failed, since sudo
        // runs the askpass program by its path, not through PATH). The README's line runs
        // `apt update`; this user may run only id, so the command after `sudo -A` is id's.
        for line in try Self.documentedSudoLines() {
            var documented = environment
            documented["SUDO_ASKPASS"] = nil
            documented["PATH"] = home + "/bin:/usr/local/bin:/usr/bin:/bin"
            let shell = try sandbox.run(
                "/usr/sbin/runuser",
                ["-u", user.name, "--", "/usr/bin/env", "-i"] + documented.map { "\($0.key)=\($0.value)" }
                    + ["/bin/sh", "-c", line + " -k /usr/bin/id -u"],
                timeout: .seconds(30))
            #expect(shell.exitCode == 0 && shell.out == "0\n", "\(line): \(shell)")
        }

        let lock = try asUser(pwtui, ["agent", "lock"])
        #expect(lock.exitCode == 0, "\(lock)")
        let locked = try asUser("/usr/bin/sudo", ["-A", "-k", "/usr/bin/id", "-u"])
        #expect(locked.exitCode != 0 && locked.out.isEmpty, "\(locked)")
        #expect(locked.err.contains("no terminal to ask for the master password"), "\(locked)")
    }
}
