// Clients that connect to the agent and then say nothing, or trickle a byte a second, must hold
// up nobody: a real `get` answers promptly, the idle lock still happens, and a client whose agent
// does not answer says it timed out rather than that the connection closed.

import Foundation
import Testing
#if canImport(Glibc)
    import Glibc
#endif

@Suite("Agent under silent clients")
struct AgentStarvationTests {
    /// Holds `silent` connections open without a word (reopening any the agent drops) and one
    /// that sends a real request a byte a second; prints "ready" once all are connected.
    static let pester = """
        import socket, sys, time, threading
        path, silent = sys.argv[1], int(sys.argv[2])
        def connect():
            s = socket.socket(socket.AF_UNIX); s.connect(path); return s
        held = [connect() for _ in range(silent)]
        def trickle():
            while True:
                s = connect()
                try:
                    for byte in b'{"body":{"status":{}},"length":0}\\n':
                        s.send(bytes([byte])); time.sleep(1)
                    s.recv(4096)
                except OSError:
                    pass
                s.close()
        threading.Thread(target=trickle, daemon=True).start()
        print("ready", flush=True)
        while True:
            time.sleep(0.2)
            for i, s in enumerate(held):
                s.setblocking(False)
                try:
                    if s.recv(1) == b"": raise OSError
                except BlockingIOError:
                    continue
                except OSError:
                    held[i] = connect()
        """

    /// A vault with github.com → agent-secret and its agent unlocked, pestered by `silent` silent
    /// connections and a slow one while `body` runs; then the pest is killed and the agent stopped.
    func withPesteredAgent(
        idle: String, silent: Int, sourceLocation: SourceLocation = #_sourceLocation,
        _ body: (Sandbox) throws -> Void
    ) throws {
        let sandbox = try Sandbox.withVault(
            Login(["github.com"], username: "alice", secret: "agent-secret"),
            sourceLocation: sourceLocation)
        defer { sandbox.stopAgent() }
        try sandbox.startUnlockedAgent(idleTimeout: idle, sourceLocation: sourceLocation)
        let pester = try sandbox.start("/usr/bin/python3", ["-c", Self.pester, sandbox.agentSocket, "\(silent)"])
        defer { pester.signal(SIGKILL) }
        try #require(pester.saidReady(), "the pest did not connect to the agent", sourceLocation: sourceLocation)
        try body(sandbox)
    }

    @Test(
        "ten silent connections and a slow one: a get through the agent answers at once, and the idle lock still comes")
    func silentClientsStarveNobody() throws {
        try withPesteredAgent(idle: "4s", silent: 10) { sandbox in
            // A serial agent gave each silent connection its 5 s: the get below waited 50 s and, past
            // its own 10 s, failed. Served side by side, it takes what a get takes.
            for _ in 0 ..< 3 {
                let get = try sandbox.pwtui(["get", "github.com", "--no-interaction"], password: .none)
                #expect(get.exitCode == 0 && get.out == "agent-secret\n", "\(get)")
                #expect(
                    get.duration < .seconds(5),
                    "answered in \(get.duration) despite the silent clients (a serial agent: 10 s, then a failure)")
            }
            // Still pestered, the agent locks once unused for its idle timeout.
            let locked = poll(timeout: .seconds(12), every: .milliseconds(250)) {
                (try? sandbox.pwtui(["agent", "status"], password: .none).exitCode) == 75
            }
            #expect(locked, "the agent locked itself while silent clients held connections")
        }
    }

    @Test("more connections than the agent's cap: the oldest silent one makes room, a get still answers")
    func connectionCap() throws {
        try withPesteredAgent(idle: "30s", silent: 60) { sandbox in
            let get = try sandbox.pwtui(["get", "github.com", "--no-interaction"], password: .none)
            #expect(get.exitCode == 0 && get.out == "agent-secret\n", "\(get)")
            #expect(get.duration < .seconds(5), "answered in \(get.duration) with the agent at its cap")

            // The agent holds no more than its cap (32) of the 61 the pest keeps trying to hold, plus
            // its listener and the one asking here.
            let askPID = """
                import json, socket, sys
                s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])
                s.sendall(b'{"body":{"status":{}},"length":0}\\n'); print(json.loads(s.makefile().readline())["body"]["status"]["state"]["pid"])
                """
            let pid = try sandbox.run("/usr/bin/python3", ["-c", askPID, sandbox.agentSocket]).out.trimmingCharacters(
                in: .whitespacesAndNewlines)
            try #require(Int(pid) != nil, "no pid from the agent: \(pid)")
            let sockets = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").filter { fd in
                (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\(fd)"))?.hasPrefix(
                    "socket:") == true
            }
            #expect(sockets.count <= 32 + 2, "the agent holds \(sockets.count) sockets")
        }
    }

    @Test("an agent that accepts and never answers: the client says it timed out, not that the connection closed")
    func timeoutNamedAsTimeout() throws {
        let sandbox = try Sandbox.withVault()
        let script = """
            import socket, sys, time
            s = socket.socket(socket.AF_UNIX); s.bind(sys.argv[1]); s.listen(4)
            print("ready", flush=True)
            held = []
            while True:
                c, _ = s.accept(); held.append(c)
            """
        let mute = try sandbox.startStandInAgent(script)
        defer { mute.signal(SIGKILL) }
        try #require(mute.saidReady())
        let get = try sandbox.pwtui(["get", "github.com", "--no-interaction"], password: .none, timeout: .seconds(30))
        #expect(get.exitCode == 74, "\(get)")
        #expect(get.err.contains("did not answer within 10 s") && !get.err.contains("closed"), "\(get)")
    }
}
