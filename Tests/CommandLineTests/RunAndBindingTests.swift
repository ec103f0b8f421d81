// What needs the real binary in `pwtui run` and in credentials bound to programs: signals sent to
// the pwtui process reach the child, a child's death by a signal is pwtui's, the agent answers
// references, and a credential bound to git is given to a real git clone and to nothing else.
// (The rest is tested in process: RunInjectInProcessTests, ProgramBindingInProcessTests.)

import Foundation
import Platform
import Testing
#if canImport(Glibc)
    import Glibc
#endif

@Suite("run and program bindings, end to end")
struct RunAndBindingTests {
    @Test("kill -TERM of pwtui run reaches the child, whose exit status is pwtui's; its output stays masked")
    func signalForwarded() throws {
        let sandbox = try Sandbox.withVault(Login(["github.com"], username: "octocat", secret: "gh-run-secret"))
        let script = #"trap 'echo "TERM seen, token $T"; exit 9' TERM; echo ready; while :; do sleep 0.05; done"#
        let child = try sandbox.start(
            try Binaries.require(Binaries.pwtui),
            ["run", "--master-password-fd", "3", "--env", "T=pwtui://github.com", "--", "/bin/sh", "-c", script],
            descriptors: [3: .text(sandbox.password)])
        let ready = poll(timeout: .seconds(20)) {
            String(decoding: child.currentStdout(), as: UTF8.self).contains("ready")
        }
        try #require(ready, "\(child.wait(timeout: .seconds(1)))")
        kill(child.pid, SIGTERM)  // pwtui only: the child hears it from pwtui
        let result = child.wait(timeout: .seconds(20))
        #expect(result.exitCode == 9, "\(result)")
        #expect(result.out.contains("TERM seen, token <concealed by pwtui>"), "\(result)")
        #expect(!result.out.contains("gh-run-secret"))
    }

    /// (Whether the terminal's SIGINT is also forwarded cannot be seen from a shell: two SIGINTs
    /// that reach it before its trap runs are one. The shim's SI_KERNEL check is what keeps it
    /// from being sent twice.)
    @Test("Ctrl-C in a real terminal reaches the child, and pwtui run outlives it, waits and ends with its status")
    func terminalInterruptOnce() throws {
        let sandbox = try Sandbox.withVault()
        let tmux = try TmuxSession.shellReady(sandbox: sandbox)
        let pwtui = try Binaries.require(Binaries.pwtui)
        // Each word looked for on the screen is split in the command line, so that the typed line
        // itself never matches.
        let script =
            #"n=0; trap 'n=$((n+1)); echo "INT $n"' INT; echo re""ady; while [ $n -lt 2 ]; do sleep 0.1; done; echo fin""ished"#
        try tmux.enter(
            "'\(pwtui)' run -- /bin/sh -c '\(script.replacingOccurrences(of: "'", with: "'\\''"))'; echo \"R\"\"C=$?\"")
        try tmux.requirePane("the child started") { $0.contains("ready") }
        try tmux.press("C-c")
        try tmux.requirePane("the child heard Ctrl-C") { $0.contains("INT 1") }
        CurrentProcess.sleep(for: .milliseconds(500))
        #expect(!(try tmux.capture().contains("INT 2")), "one Ctrl-C, one trap")
        try tmux.press("C-c")
        let end = try tmux.requirePane("the child ended") { $0.contains("RC=") }
        #expect(end.contains("INT 2") && end.contains("finished") && end.contains("RC=0"), "\(end)")
    }

    @Test("a child killed by a signal kills pwtui run with the same signal; with no references nothing is unlocked")
    func diesLikeTheChild() throws {
        let sandbox = try Sandbox.withVault()
        let result = try sandbox.pwtui(["run", "--", "/bin/sh", "-c", "kill -KILL $$"], password: .none)
        #expect(result.signaled && result.status == SIGKILL, "\(result)")
        let status = try sandbox.pwtui(["run", "--", "/bin/sh", "-c", "exit 42"], password: .none)
        #expect(status.exitCode == 42)
        let missing = try sandbox.pwtui(["run", "--", "pwtui-no-such-program"], password: .none)
        #expect(missing.exitCode == 127 && missing.err.contains("no such program"), "\(missing)")
    }

    @Test("with the agent unlocked, run and inject answer without the master password")
    func throughTheAgent() throws {
        let sandbox = try Sandbox.withVault(Login(["api.example"], username: "svc", secret: "agent-api-key"))
        try sandbox.startUnlockedAgent()
        defer { sandbox.stopAgent() }
        let run = try sandbox.pwtui(
            ["run", "--no-masking", "--env", "K=pwtui://api.example", "--", "/bin/sh", "-c", #"echo "$K""#],
            password: .none)
        #expect(run.exitCode == 0 && run.out == "agent-api-key\n", "\(run)")
        let inject = try sandbox.pwtui(
            ["inject"], password: .none, stdin: "key={{ pwtui://api.example/username }}:{{ pwtui://api.example }}")
        #expect(inject.exitCode == 0 && inject.out == "key=svc:agent-api-key\n", "\(inject)")
    }

    @Test("bound to git: a real git clone gets it through the agent; pwtui get from elsewhere is refused, saying why")
    func boundToGit() throws {
        let git = GitCredentialTests()
        let (sandbox, url, server) = try git.vaultServedWith(secret: "git-secret")
        defer { server.signal(SIGKILL) }
        let origin = url.replacingOccurrences(of: "/repo.git", with: "")  // the service it is saved for
        let edit = try sandbox.pwtui(["edit", origin, "--allow-program", "git"])
        #expect(edit.exitCode == 0, "\(edit)")
        try sandbox.startUnlockedAgent()
        defer { sandbox.stopAgent() }

        let pwtui = try Binaries.require(Binaries.pwtui)
        let clone = try sandbox.run(
            "/usr/bin/env",
            [
                "git", "-c", "credential.helper=", "-c", "credential.helper=!'\(pwtui)' git-credential",
                "clone", "-q", url, sandbox.root + "/cloned",
            ],
            environment: ["GIT_TERMINAL_PROMPT": "0", "GIT_ASKPASS": "/bin/false"], timeout: .seconds(60))
        #expect(clone.exitCode == 0, "\(clone)")
        #expect(FileManager.default.fileExists(atPath: sandbox.root + "/cloned/README"))

        let get = try sandbox.pwtui(["get", origin], password: .none)
        #expect(get.exitCode == 1 && get.out.isEmpty, "\(get)")
        #expect(get.err.contains("is given only to git") && get.err.contains("this request came from pwtui"), "\(get)")
        let shown = try sandbox.pwtui(["show", origin], password: .none)
        #expect(shown.out.contains("given to    git"), "\(shown)")

        // Bound to another program only: git is refused, and hears why on the helper's stderr.
        #expect(
            try sandbox.pwtui(
                ["edit", origin, "--allow-program", "podman", "--disallow-program", "git"], password: .none
            ).exitCode == 0)
        let refused = try sandbox.run(
            "/usr/bin/env",
            [
                "git", "-c", "credential.helper=", "-c", "credential.helper=!'\(pwtui)' git-credential",
                "clone", "-q", url, sandbox.root + "/refused",
            ],
            environment: ["GIT_TERMINAL_PROMPT": "0", "GIT_ASKPASS": "/bin/false"], timeout: .seconds(60))
        #expect(refused.exitCode != 0, "\(refused)")
        #expect(refused.err.contains("is given only to podman"), "\(refused)")
    }
}
