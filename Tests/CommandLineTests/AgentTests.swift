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
        let sandbox = try Sandbox.withVault(Login(["github.com"], username: "alice", secret: "agent-secret"))
        let start = try sandbox.pwtui(
            ["agent", "start", "--idle-timeout", idle], password: .none, timeout: .seconds(15))
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
        #expect(
            try sandbox.pwtui(["get", "gitlab.com", "--no-interaction"], password: .none).out == "added-later\n",
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

    @Test("SIGTERM, SIGHUP and SIGINT lock and exit, removing the socket", arguments: ["TERM", "HUP", "INT"])
    func signalsStop(_ signal: String) throws {
        let sandbox = try agentSandbox()
        #expect(try sandbox.pwtui(["unlock"]).exitCode == 0)
        let socket = sandbox.root + "/xdg/runtime/pwtui/agent.sock"
        #expect(FileManager.default.fileExists(atPath: socket))
        // "foregroun[d]": the pattern must not match pkill's own wrapper.
        _ = try sandbox.run(
            "/usr/bin/env",
            ["pkill", "-\(signal)", "-f", "agent start --foregroun[d] --idle-timeout 30s --vault \(sandbox.vault)"])
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
        for path in [sandbox.root, sandbox.root + "/xdg", sandbox.root + "/xdg/runtime", directory] {
            chmod(path, 0o755)
        }
        chmod(directory + "/agent.sock", 0o666)
        let script = """
            import json, socket, sys
            s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])
            try:
                s.sendall(json.dumps({"body": {"get": {"vault": sys.argv[2], "query": {"services": ["github.com"]}, "field": "password"}}, "length": 0}).encode() + b"\\n")
            except (BrokenPipeError, ConnectionResetError):
                pass  # the agent may refuse and close before the request is even sent
            print(s.recv(65536).decode())
            """
        let result = try sandbox.run(
            "/usr/bin/setpriv",
            [
                "--reuid=nobody", "--regid=nogroup", "--clear-groups",
                "/usr/bin/python3", "-c", script, directory + "/agent.sock", sandbox.vault,
            ])
        #expect(result.exitCode == 0, "\(result)")
        #expect(result.out.contains("refused") && !result.out.contains("agent-secret"), "\(result)")
        for path in [sandbox.root, sandbox.root + "/xdg", sandbox.root + "/xdg/runtime", directory] {
            chmod(path, 0o700)
        }
    }

    @Test("add, edit and rm through an unlocked agent ask nothing; the vault file and the identity store follow")
    func writesThroughAgent() throws {
        let sandbox = try agentSandbox()
        defer { stop(sandbox) }
        // No descriptor and no terminal: only an unlocked agent can make these writes succeed.
        #expect(
            try sandbox.pwtui(["add", "gitlab.com", "--username", "bob"], password: .none, stdin: "bob-1").exitCode
                == 75,
            "locked: nobody to ask for the master password")
        #expect(try sandbox.pwtui(["unlock"]).exitCode == 0)
        let add = try sandbox.pwtui(["add", "gitlab.com", "--username", "bob"], password: .none, stdin: "bob-1")
        #expect(add.exitCode == 0, "\(add)")
        let id = add.out.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(UUID(uuidString: id) != nil, "\(add)")
        let saved = try sandbox.listJSON()
        #expect(saved.contains { $0["username"] as? String == "bob" }, "saved to the file, read back with the password")

        let edit = try sandbox.pwtui(
            ["edit", String(id.prefix(8)), "--username", "carol", "--password", "--add-service", "gitlab.example"],
            password: .none, stdin: "carol-2")
        #expect(edit.exitCode == 0 && edit.err.contains("Updated gitlab.com"), "\(edit)")
        #expect(
            try sandbox.pwtui(["get", "gitlab.example", "--field", "both", "--no-interaction"], password: .none).out
                == "carol\ncarol-2\n")
        let suggested = try sandbox.pwtui(["suggest", "gitlab.com", "--format", "json"], password: .none)
        #expect(try parseJSONArray(suggested.stdout).map { $0["username"] as? String } == ["carol"], "\(suggested)")
        let badEdit = try sandbox.pwtui(["edit", id, "--remove-service", "nowhere.example"], password: .none)
        #expect(badEdit.exitCode == 64 && badEdit.err.contains("has no service 'nowhere.example'"), "\(badEdit)")

        let unconfirmed = try sandbox.pwtui(["rm", id], password: .none)
        #expect(unconfirmed.exitCode == 75 && unconfirmed.err.contains("Delete") == false, "\(unconfirmed)")
        #expect(
            try sandbox.pwtui(["get", "gitlab.com", "--no-interaction"], password: .none).out == "carol-2\n",
            "nothing deleted")
        let rm = try sandbox.pwtui(["rm", id, "--yes"], password: .none)
        #expect(rm.exitCode == 0 && rm.err.contains("Deleted gitlab.com (carol, gitlab.com gitlab.example)"), "\(rm)")
        #expect(try sandbox.pwtui(["get", "gitlab.com", "--no-interaction"], password: .none).exitCode == 1)
        #expect(try sandbox.pwtui(["suggest", "gitlab.com"], password: .none).exitCode == 1, "the store forgot it too")
        #expect(try sandbox.listJSON().map { $0["username"] as? String } == ["alice"])
    }

    @Test(
        "kill -9 of the agent during a save leaves a vault that opens and a store that never suggests what it does not hold"
    )
    func killDuringAgentSave() throws {
        let sandbox = try Sandbox.withVault()
        let pwtui = try Binaries.require(Binaries.pwtui)
        func unlockedAgent() throws -> Child {
            let agent = try sandbox.start(pwtui, ["agent", "start", "--foreground"])
            // Locked, not "no agent" (also 75): an unlock before it listens would start another.
            try #require(
                poll(timeout: .seconds(10)) {
                    (try? sandbox.pwtui(["agent", "status"], password: .none)).map {
                        $0.exitCode == 75 && $0.out.hasPrefix("locked")
                    } == true
                })
            #expect(try sandbox.pwtui(["unlock"]).exitCode == 0)
            return agent
        }
        // How long an add through a freshly unlocked agent takes here: the kills below are spread
        // over 1.5 times that, so that some land before the save and some after (machines differ
        // several-fold). Timed by the clock around the process itself, not by `Child.wait`, whose
        // polling backs off to 20 ms: once `add` took about 12 ms, that doubled the window and
        // left the save in its first eighth, and a loaded run saw all sixteen kills land after
        // it. The median of three, each with an agent of its own as the rounds have.
        var durations: [Int] = []
        for sample in 0 ..< 3 {
            let timing = try unlockedAgent()
            let timed = try sandbox.run(
                "/bin/bash",
                [
                    "-c",
                    "start=$(date +%s%N); printf t | \"$PWTUI\" add timing\(sample).example --username timing >/dev/null "
                        + "|| exit 1; echo $(( ($(date +%s%N) - start) / 1000000 ))",
                ], environment: ["PWTUI": pwtui], timeout: .seconds(10))
            let milliseconds = Int(timed.out.trimmingCharacters(in: .whitespacesAndNewlines))
            try #require(timed.exitCode == 0 && milliseconds != nil, "\(timed)")
            durations.append(milliseconds ?? 0)
            timing.signal(SIGKILL)
            _ = timing.wait(timeout: .seconds(10))
        }
        let window = UInt32(durations.sorted()[1] * 1500)
        var random = SystemRandomNumberGenerator()
        var added = 0
        let rounds = 16
        var outcomes: [String] = []
        for round in 0 ..< rounds {
            let agent = try unlockedAgent()
            let client = try sandbox.start(
                pwtui, ["add", "n\(round).example", "--username", "u\(round)"], stdin: .text("secret-\(round)"))
            let delay = UInt32.random(in: 0 ... window, using: &random)
            usleep(delay)
            agent.signal(SIGKILL)
            _ = agent.wait(timeout: .seconds(10))
            let answer = client.wait(timeout: .seconds(10))
            outcomes.append("\(delay / 1000) ms: \(answer.exitCode.map(String.init) ?? "none")")
            #expect(answer.exitCode == 0 || answer.exitCode == 74 || answer.exitCode == 75, "\(answer)")
            let listed = try sandbox.listJSON().compactMap { $0["username"] as? String }
            if answer.exitCode == 0 { #expect(listed.contains("u\(round)"), "an acknowledged write is in the file") }
            if listed.contains("u\(round)") { added += 1 }
            let suggested = try sandbox.pwtui(["suggest", "n\(round).example", "--format", "json"], password: .none)
            #expect(suggested.exitCode == 0 || suggested.exitCode == 75, "current, or missing/stale: \(suggested)")
            if suggested.exitCode == 0,
                try parseJSONArray(suggested.stdout).contains(where: { $0["username"] as? String == "u\(round)" })
            {
                #expect(listed.contains("u\(round)"), "the store suggests u\(round) only if the vault holds it")
            }
        }
        // Both outcomes must have happened for the test to have tested anything; the delays
        // above span a save, so a run where every kill came too early or too late is a failure
        // of the test's timing, reported as such.
        let kills = outcomes.joined(separator: ", ")
        #expect(
            added > 0 && added < rounds,
            "kills landed before and after saves (\(added) of \(rounds) saved, window \(window / 1000) ms; each kill's delay and the add's exit: \(kills); timed adds \(durations) ms)"
        )
    }

    @Test("an agent that hangs up mid-request is an error (74) with a message, never a silent SIGPIPE death")
    func agentHangingUp() throws {
        let sandbox = try Sandbox.withVault()
        // A stand-in agent: says it is unlocked, then closes the next connection unread.
        let script = """
            import json, socket, sys
            s = socket.socket(socket.AF_UNIX); s.bind(sys.argv[1]); s.listen(4)
            c, _ = s.accept(); c.recv(65536)
            state = {"locked": False, "vault": sys.argv[2], "locksInSeconds": 60, "pid": 1}
            c.sendall(json.dumps({"body": {"status": {"state": state}}, "length": 0}).encode() + b"\\n"); c.close()
            c, _ = s.accept(); c.close()
            """
        let fake = try sandbox.startStandInAgent(script, arguments: [sandbox.vault])
        defer { fake.signal(SIGKILL) }
        try #require(poll(timeout: .seconds(10)) { FileManager.default.fileExists(atPath: sandbox.agentSocket) })
        let add = try sandbox.pwtui(
            ["add", "example.com", "--username", "u"], password: .none,
            stdin: String(repeating: "x", count: 60_000))
        #expect(add.exitCode == 74 && add.err.contains("agent"), "\(add)")
    }
}
