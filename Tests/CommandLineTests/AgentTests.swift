// The agent through the real binary: started locked, unlocked once, then `get` answers from it
// without a password; it re-reads a vault saved by others, locks when idle, refuses other users,
// and on SIGTERM locks, removes its socket and exits.

import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite("Agent")
struct AgentTests {
    func agentSandbox(idle: String = "30s") throws -> Sandbox {
        let sandbox = try Sandbox()
        try sandbox.initVault()
        try sandbox.add(["github.com"], username: "alice", secret: "agent-secret")
        let start = try sandbox.pwtui(["agent", "start", "--idle-timeout", idle], password: .none, timeout: .seconds(15))
        try #require(start.exitCode == 0, "\(start)")
        return sandbox
    }

    func stop(_ sandbox: Sandbox) {
        _ = try? sandbox.pwtui(["agent", "stop"], password: .none)
    }

    @Test("start, unlock, get without a password, a vault saved by others, lock, stop")
    func lifecycle() throws {
        let sandbox = try agentSandbox()
        defer { stop(sandbox) }
        #expect(try sandbox.pwtui(["agent", "status"], password: .none).exitCode == 75, "starts locked")
        #expect(try sandbox.pwtui(["get", "github.com", "--no-interaction"], password: .none).exitCode == 75)
        #expect(try sandbox.pwtui(["unlock"], password: .text("wrong")).exitCode == 77)
        #expect(try sandbox.pwtui(["unlock"]).exitCode == 0)
        let status = try sandbox.pwtui(["agent", "status"], password: .none)
        #expect(status.exitCode == 0 && status.out.hasPrefix("unlocked"), "\(status)")
        let get = try sandbox.pwtui(["get", "github.com", "--no-interaction"], password: .none)
        #expect(get.exitCode == 0 && get.out == "agent-secret\n", "\(get)")
        #expect(try sandbox.pwtui(["get", "gitlab.com", "--no-interaction"], password: .none).exitCode == 1)
        try sandbox.add(["gitlab.com"], username: "bob", secret: "added-later")
        #expect(try sandbox.pwtui(["get", "gitlab.com", "--no-interaction"], password: .none).out == "added-later\n",
                "the agent re-reads a vault another process saved")
        #expect(try sandbox.pwtui(["agent", "lock"], password: .none).exitCode == 0)
        #expect(try sandbox.pwtui(["get", "github.com", "--no-interaction"], password: .none).exitCode == 75)
    }

    @Test("two clients at once both get their answer")
    func twoClients() throws {
        let sandbox = try agentSandbox()
        defer { stop(sandbox) }
        #expect(try sandbox.pwtui(["unlock"]).exitCode == 0)
        let pwtui = try Binaries.require(Binaries.pwtui)
        let children = try (0 ..< 2).map { _ in
            try sandbox.start(pwtui, ["get", "github.com", "--no-interaction"])
        }
        for child in children {
            let result = child.wait(timeout: .seconds(10))
            #expect(result.exitCode == 0 && result.out == "agent-secret\n", "\(result)")
        }
    }

    @Test("an idle agent locks itself")
    func idleTimeoutLocks() throws {
        let sandbox = try agentSandbox(idle: "1s")
        defer { stop(sandbox) }
        #expect(try sandbox.pwtui(["unlock"]).exitCode == 0)
        #expect(try sandbox.pwtui(["get", "github.com", "--no-interaction"], password: .none).exitCode == 0)
        let locked = poll(timeout: .seconds(5), every: .milliseconds(200)) {
            (try? sandbox.pwtui(["agent", "status"], password: .none).exitCode) == 75
        }
        #expect(locked)
        #expect(try sandbox.pwtui(["get", "github.com", "--no-interaction"], password: .none).exitCode == 75)
    }

    @Test("SIGTERM locks and exits, removing the socket")
    func sigtermStops() throws {
        let sandbox = try agentSandbox()
        #expect(try sandbox.pwtui(["unlock"]).exitCode == 0)
        let socket = sandbox.root + "/xdg/runtime/pwtui/agent.sock"
        #expect(FileManager.default.fileExists(atPath: socket))
        // "foregroun[d]": the pattern must not match pkill's own wrapper.
        _ = try sandbox.run("/usr/bin/env", ["pkill", "-TERM", "-f", "agent start --foregroun[d] --idle-timeout 30s --vault \(sandbox.vault)"])
        let gone = poll(timeout: .seconds(5)) { !FileManager.default.fileExists(atPath: socket) }
        #expect(gone, "the agent exits and removes its socket")
        #expect(try sandbox.pwtui(["agent", "status"], password: .none).exitCode == 75)
    }

    @Test("a client of another uid is refused by the agent itself")
    func otherUserRefused() throws {
        let sandbox = try agentSandbox()
        defer { stop(sandbox) }
        #expect(try sandbox.pwtui(["unlock"]).exitCode == 0)
        // Open the way to the socket so that only the agent's own peer-uid check stands.
        let directory = sandbox.root + "/xdg/runtime/pwtui"
        for path in [sandbox.root, sandbox.root + "/xdg", sandbox.root + "/xdg/runtime", directory] { chmod(path, 0o755) }
        chmod(directory + "/agent.sock", 0o666)
        let script = """
            import json, socket, sys
            s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])
            s.sendall(json.dumps({"op": "get", "vault": sys.argv[2], "services": ["github.com"], "length": 0}).encode() + b"\\n")
            print(s.recv(65536).decode())
            """
        let result = try sandbox.run("/usr/bin/setpriv", ["--reuid=nobody", "--regid=nogroup", "--clear-groups",
                                                           "/usr/bin/python3", "-c", script, directory + "/agent.sock", sandbox.vault])
        #expect(result.exitCode == 0, "\(result)")
        #expect(result.out.contains("refused") && !result.out.contains("agent-secret"), "\(result)")
        for path in [sandbox.root, sandbox.root + "/xdg", sandbox.root + "/xdg/runtime", directory] { chmod(path, 0o700) }
    }
}
