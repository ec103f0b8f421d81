// The git credential helper with a real git, against a local smart-HTTP server that requires
// Basic auth (Fixtures/git-http-server.py: git-http-backend on 127.0.0.1, stops by itself).

import Foundation
import Testing
#if canImport(Glibc)
    import Glibc
#endif

@Suite("git credential helper")
struct GitCredentialTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
        .path

    /// A bare repository with one commit, served with user "alice" / password "git-secret": the
    /// repository's URL, the origin a credential is saved for, and the server to stop.
    func server(_ sandbox: Sandbox) throws -> (url: String, origin: String, child: Child) {
        let setup = """
            set -e
            git init -q --bare '\(sandbox.root)/srv/repo.git'
            git init -q '\(sandbox.root)/work' && cd '\(sandbox.root)/work'
            echo hello > README && git add README
            git -c user.name=t -c user.email=t@example.invalid commit -q -m first
            git push -q '\(sandbox.root)/srv/repo.git' HEAD:refs/heads/main
            git --git-dir='\(sandbox.root)/srv/repo.git' symbolic-ref HEAD refs/heads/main
            """
        let made = try sandbox.run("/bin/bash", ["-c", setup])
        try #require(made.exitCode == 0, "\(made)")
        let portFile = sandbox.scratch + "/port"
        let child = try sandbox.start(
            "/usr/bin/env",
            [
                "python3", Self.fixtures + "/git-http-server.py",
                sandbox.root + "/srv", "alice", "git-secret", portFile,
            ])
        let up = poll(timeout: .seconds(10)) { FileManager.default.fileExists(atPath: portFile) }
        try #require(up, "the test server did not start: \(child.wait(timeout: .seconds(1)))")
        let port = String(decoding: readBytes(portFile) ?? [], as: UTF8.self)
        return ("http://127.0.0.1:\(port)/repo.git", "http://127.0.0.1:\(port)", child)
    }

    /// A vault that holds alice's `secret` for the test server, and the server (the caller stops
    /// it): what git finds when pwtui already knows a password, right or outdated.
    func vaultServedWith(secret: String) throws -> (sandbox: Sandbox, url: String, server: Child) {
        let sandbox = try Sandbox.withVault()
        let (url, origin, server) = try server(sandbox)
        try sandbox.add([origin], username: "alice", secret: secret)
        return (sandbox, url, server)
    }

    /// git clone with pwtui as the only credential helper; the master password comes from a file
    /// on descriptor 3 (a script's way; a person would be asked on the terminal).
    func clone(_ sandbox: Sandbox, _ url: String, into name: String) throws -> RunResult {
        let pwtui = try Binaries.require(Binaries.pwtui)
        let passwordFile = sandbox.scratch + "/master"
        try (sandbox.password + "\n").write(toFile: passwordFile, atomically: true, encoding: .utf8)
        let helper = "!f() { '\(pwtui)' git-credential --master-password-fd 3 \"$@\" 3<'\(passwordFile)'; }; f"
        return try sandbox.run(
            "/usr/bin/env",
            [
                "git", "-c", "credential.helper=", "-c", "credential.helper=\(helper)",
                "clone", "-q", url, sandbox.root + "/" + name,
            ],
            environment: ["GIT_TERMINAL_PROMPT": "0", "GIT_ASKPASS": "/bin/false", "SSH_ASKPASS": "/bin/false"],
            timeout: .seconds(60))
    }

    @Test("git clone over HTTP with Basic auth succeeds with the vault's credential and fails cleanly without")
    func cloneWithAndWithoutTheCredential() throws {
        let sandbox = try Sandbox.withVault()
        let (url, origin, server) = try server(sandbox)
        defer { server.signal(SIGKILL) }

        let without = try clone(sandbox, url, into: "without")
        #expect(without.exitCode != 0 && !without.timedOut, "no credential: git fails and does not hang: \(without)")

        try sandbox.add([origin], username: "alice", secret: "git-secret")
        let with = try clone(sandbox, url, into: "with")
        #expect(with.exitCode == 0, "\(with)")
        #expect(FileManager.default.fileExists(atPath: sandbox.root + "/with/README"))
    }

    @Test("a wrong saved password fails cleanly and erase without a terminal deletes nothing")
    func wrongPasswordIsNotErasedSilently() throws {
        let (sandbox, url, server) = try vaultServedWith(secret: "outdated")
        defer { server.signal(SIGKILL) }
        let result = try clone(sandbox, url, into: "wrong")
        #expect(result.exitCode != 0 && !result.timedOut, "\(result)")
        #expect(try sandbox.listJSON().count == 1, "git's erase without a terminal must not delete")
    }

    @Test(
        "the protocol directly: get answers, store adds a new credential and replaces a changed password (the old one in history)"
    )
    func protocolDirectly() throws {
        let sandbox = try Sandbox.withVault(Login(["https://git.example.com"], username: "alice", secret: "first"))
        let get = try sandbox.pwtui(["git-credential", "get"], stdin: "protocol=https\nhost=git.example.com\n\n")
        #expect(get.out == "username=alice\npassword=first\n", "\(get)")
        // With credential.useHttpPath git sends the path: then only a credential saved for that
        // repository (or a path prefix of it) answers (GitProtocolTests).
        let scoped = try sandbox.pwtui(
            ["git-credential", "get"], stdin: "protocol=https\nhost=git.example.com\npath=org/repo.git\n\n")
        #expect(scoped.exitCode == 0 && scoped.out.isEmpty, "\(scoped)")
        let other = try sandbox.pwtui(["git-credential", "get"], stdin: "protocol=https\nhost=other.example.com\n\n")
        #expect(other.exitCode == 0 && other.out.isEmpty, "no match: nothing, and git moves on")
        let ssh = try sandbox.pwtui(["git-credential", "get"], stdin: "protocol=ssh\nhost=git.example.com\n\n")
        #expect(ssh.out.isEmpty)
        let locked = try sandbox.pwtui(
            ["git-credential", "get"], password: .none, stdin: "protocol=https\nhost=git.example.com\n\n")
        #expect(locked.exitCode == 0 && locked.out.isEmpty, "locked and no terminal: nothing: \(locked)")
        // Nor a word on a stderr that is no terminal: git's t0303 (helper_test_timeout) reads any
        // as a failure (issue 38). On a terminal it says what to do (GitHelperInProcessTests).
        #expect(locked.err.isEmpty, "\(locked)")

        let store = try sandbox.pwtui(
            ["git-credential", "store"],
            stdin: "protocol=https\nhost=new.example.com:8443\nusername=bob\npassword=pw-new\n\n")
        #expect(store.exitCode == 0, "\(store)")
        #expect(try sandbox.pwtui(["get", "https://new.example.com:8443/"]).out == "pw-new\n")
        let update = try sandbox.pwtui(
            ["git-credential", "store"],
            stdin: "protocol=https\nhost=git.example.com\nusername=alice\npassword=changed\n\n")
        #expect(update.exitCode == 0)
        #expect(update.err.isEmpty, "git reads words on a stderr that is no terminal as an error: \(update)")
        #expect(
            try sandbox.pwtui(["get", "https://git.example.com"]).out == "changed\n",
            "git stores only after the server accepted the password: it replaces the saved one")
        let history = try sandbox.pwtui(["history", "https://git.example.com", "--reveal"])
        #expect(history.out.contains("first"), "the previous password is kept in the history: \(history)")
    }

    @Test(
        "with the agent unlocked: git clone asks nothing, get answers host-level matches only, store adds without a password"
    )
    func throughTheAgent() throws {
        let (sandbox, url, server) = try vaultServedWith(secret: "git-secret")
        defer { server.signal(SIGKILL) }
        try sandbox.add(["gist.example.com"], username: "carol", secret: "same-site-only")
        #expect(try sandbox.pwtui(["agent", "start"], password: .none).exitCode == 0)
        defer { _ = try? sandbox.pwtui(["agent", "stop"], password: .none) }
        #expect(try sandbox.pwtui(["unlock"]).exitCode == 0)

        // No descriptor and no terminal: only the agent can answer.
        let pwtui = try Binaries.require(Binaries.pwtui)
        let clone = try sandbox.run(
            "/usr/bin/env",
            [
                "git", "-c", "credential.helper=", "-c", "credential.helper=!'\(pwtui)' git-credential",
                "clone", "-q", url, sandbox.root + "/via-agent",
            ],
            environment: ["GIT_TERMINAL_PROMPT": "0", "GIT_ASKPASS": "/bin/false", "SSH_ASKPASS": "/bin/false"],
            timeout: .seconds(60))
        #expect(clone.exitCode == 0, "\(clone)")
        #expect(FileManager.default.fileExists(atPath: sandbox.root + "/via-agent/README"))

        let sameSite = try sandbox.pwtui(
            ["git-credential", "get"], password: .none, stdin: "protocol=https\nhost=www.example.com\n\n")
        #expect(
            sameSite.exitCode == 0 && sameSite.out.isEmpty,
            "another host's password is never sent without a person: \(sameSite)")
        let store = try sandbox.pwtui(
            ["git-credential", "store"], password: .none,
            stdin: "protocol=https\nhost=new.example.org\nusername=bob\npassword=pw-agent\n\n")
        #expect(store.exitCode == 0, "\(store)")
        #expect(
            try sandbox.pwtui(["get", "https://new.example.org/"]).out == "pw-agent\n", "saved to the file by the agent"
        )
        let erase = try sandbox.pwtui(
            ["git-credential", "erase"], password: .none,
            stdin: "protocol=https\nhost=new.example.org\nusername=bob\n\n")
        #expect(erase.exitCode == 0 && erase.out.isEmpty)
        #expect(
            try sandbox.pwtui(["get", "https://new.example.org/"]).out == "pw-agent\n",
            "erase without a terminal deletes nothing")
    }
}
