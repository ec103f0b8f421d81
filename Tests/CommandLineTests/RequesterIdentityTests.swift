// Who asks, against a requester that lies about it, with the real binary and the real agent:
// argv[0] (`exec -a git pwtui get X`) is no evidence, and a process that connects, forks, and
// exec's git in the connected process while its child sends the request is not served as git
// (docs/agent.md, "Credentials bound to programs"; issue 36).

import Foundation
import Platform
import Testing

@Suite("who asks cannot be faked")
struct RequesterIdentityTests {
    /// A vault whose one credential is bound to git.
    static func boundToGit() throws -> Sandbox {
        let sandbox = try Sandbox.withVault(Login(["api.example"], username: "svc", secret: "bound-secret"))
        let edit = try sandbox.pwtui(["edit", "api.example", "--allow-program", "git"])
        try #require(edit.exitCode == 0, "\(edit)")
        return sandbox
    }

    @Test("pwtui started as git (exec -a git) is pwtui: refused, with and without the agent")
    func argumentZeroIsNoEvidence() throws {
        let sandbox = try Self.boundToGit()
        let pwtui = try Binaries.require(Binaries.pwtui)
        let local = try sandbox.run(
            "/bin/bash", ["-c", #"exec -a git "$0" get api.example --master-password-fd 3"#, pwtui],
            descriptors: [3: .text(sandbox.password)])
        #expect(local.exitCode == 1 && local.out.isEmpty, "\(local)")
        #expect(local.err.contains("is given only to git") && local.err.contains("came from pwtui"), "\(local)")

        try sandbox.startUnlockedAgent()
        defer { sandbox.stopAgent() }
        let agent = try sandbox.run("/bin/bash", ["-c", #"exec -a git "$0" get api.example"#, pwtui])
        #expect(agent.exitCode == 1 && agent.out.isEmpty, "\(agent)")
        #expect(agent.err.contains("is given only to git") && agent.err.contains("came from pwtui"), "\(agent)")
        let askpass = try sandbox.run("/bin/bash", ["-c", #"exec -a /usr/bin/ssh "$0" get api.example"#, pwtui])
        #expect(askpass.exitCode == 1 && !askpass.out.contains("bound-secret"), "\(askpass)")
    }

    /// Connects to the agent's socket, waits until it has surely accepted, forks; the parent
    /// becomes git (kept alive on a pipe, holding the connection), and the child sends a `get`
    /// once the exec is done and prints what comes back.
    static let forkAndExec = #"""
        import json, os, socket, sys, time
        path, vault = sys.argv[1], sys.argv[2]
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.connect(path)
        time.sleep(0.3)
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(r)
            time.sleep(0.5)
            request = {"body": {"get": {"field": "password", "query": {"services": ["api.example"]}, "vault": vault}}, "length": 0}
            s.sendall(json.dumps(request).encode() + b"\n")
            answer = b""
            while True:
                got = s.recv(65536)
                if not got:
                    break
                answer += got
            sys.stdout.write(answer.decode("utf-8", "replace"))
            sys.stdout.flush()
            os.close(w)
            os._exit(0)
        os.close(w)
        os.dup2(r, 0)
        os.set_inheritable(s.fileno(), True)
        os.execvp("git", ["git", "hash-object", "--stdin"])
        """#

    @Test("connect, fork, exec git in the connected process, send from the child: refused, not served as git")
    func execAfterConnecting() throws {
        let sandbox = try Self.boundToGit()
        try sandbox.startUnlockedAgent()
        defer { sandbox.stopAgent() }
        let socket = sandbox.root + "/xdg/runtime/pwtui/agent.sock"
        let script = sandbox.root + "/fork-and-exec.py"
        try Self.forkAndExec.write(toFile: script, atomically: true, encoding: .utf8)
        let attack = try sandbox.run("/usr/bin/env", ["python3", script, socket, sandbox.vault])
        #expect(!attack.out.contains("bound-secret"), "\(attack)")
        #expect(attack.out.contains("no longer the one that asks"), "\(attack)")
        // git itself, asking through its helper, is still served.
        let pwtui = try Binaries.require(Binaries.pwtui)
        let git = try sandbox.run(
            "/usr/bin/env",
            [
                "git", "-c", "credential.helper=", "-c", "credential.helper=!'\(pwtui)' git-credential", "credential",
                "fill",
            ],
            stdin: .text("protocol=https\nhost=api.example\n\n"))
        #expect(git.exitCode == 0 && git.out.contains("password=bound-secret"), "\(git)")
    }
}
