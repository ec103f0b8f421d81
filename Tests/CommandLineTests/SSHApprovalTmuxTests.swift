// Approval of SSH signatures with OpenSSH's own programs in a terminal (issue 27): `ssh-keygen
// -Y sign` and `ssh` run in bash under tmux with SSH_AUTH_SOCK at pwtui's agent; the agent asks on
// that pane's terminal, and the test answers there as the user would. Without a terminal
// (setsid), the signature is refused unasked; while locked, the master password typed in the pane
// unlocks the agent and signs.

import Foundation
import Testing

@Suite("SSH approval on the requester's terminal")
struct SSHApprovalTmuxTests {
    /// A key's files for ssh-keygen: the public key (ssh-keygen signs through the agent when
    /// given it), an allowed_signers file for `-Y verify`.
    struct KeyFiles {
        let publicKey: String
        let allowed: String
        let fingerprint: String

        init(_ sandbox: Sandbox, line: String, name: String) throws {
            publicKey = sandbox.root + "/\(name).pub"
            allowed = sandbox.root + "/\(name).allowed"
            try line.write(toFile: publicKey, atomically: true, encoding: .utf8)
            _ = chmod(publicKey, 0o600)
            try "tester@example.org \(line)".write(toFile: allowed, atomically: true, encoding: .utf8)
            // `256 SHA256:… comment (ED25519)`: the second word is what the question must show.
            let listed = try sandbox.run("/usr/bin/ssh-keygen", ["-l", "-f", publicKey])
            fingerprint = String(listed.out.split(separator: " ").dropFirst().first ?? "")
            #expect(fingerprint.hasPrefix("SHA256:"), "\(listed)")
        }
    }

    /// Types `ssh-keygen -Y sign` of a new message into the pane (and `then`, a command line run
    /// right after it); the message's path and the file its exit status goes to.
    static func sign(
        _ key: KeyFiles, socket: String, in tmux: TmuxSession, _ sandbox: Sandbox, then: String = ""
    ) throws -> (message: String, rc: String) {
        let message = sandbox.root + "/message-" + UUID().uuidString.prefix(8)
        try "release 1.0\n".write(toFile: message, atomically: true, encoding: .utf8)
        let rc = sandbox.scratch + "/" + UUID().uuidString + ".rc"
        try tmux.enter(
            "SSH_AUTH_SOCK='\(socket)' ssh-keygen -Y sign -f '\(key.publicKey)' -n file '\(message)'"
                + "; echo RC=$? > '\(rc).tmp'; \(then.isEmpty ? "" : then + "; ")mv '\(rc).tmp' '\(rc)'")
        return (message, rc)
    }

    /// Whether ssh-keygen verifies the message's signature by the key.
    static func verifies(_ message: String, _ key: KeyFiles, _ sandbox: Sandbox) throws -> Bool {
        let verified = try sandbox.run(
            "/usr/bin/ssh-keygen",
            ["-Y", "verify", "-f", key.allowed, "-I", "tester@example.org", "-n", "file", "-s", message + ".sig"],
            stdin: .text("release 1.0"))
        return verified.exitCode == 0 && verified.out.contains("Good \"file\" signature")
    }

    static func occurrences(_ text: String, in pane: String) -> Int {
        pane.components(separatedBy: text).count - 1
    }

    static let question = "Allow this signature?"

    @Test(
        "ssh-keygen -Y sign in tmux: the pane is asked, naming ssh-keygen, the key and its fingerprint; y signs (verified), n refuses; each asks every time, session once"
    )
    func signInPane() throws {
        let sandbox = try Sandbox.withVault()
        defer { sandbox.stopAgent() }
        let (line, _, socket) = try SSHAgentProgramTests.withKey(sandbox, confirm: "each")
        let each = try KeyFiles(sandbox, line: line, name: "each")
        let tmux = try TmuxSession.shellReady(sandbox: sandbox)

        // The pane's modes right after ssh-keygen (bash's readline changes them at its prompt).
        let modesFile = sandbox.scratch + "/modes"
        let first = try Self.sign(each, socket: socket, in: tmux, sandbox, then: "stty -a > '\(modesFile)'")
        let asked = try tmux.requirePane("the question in the pane") { $0.contains(Self.question) }
        for part in ["pwtui: ssh-keygen asks to sign", "pwtui test key", each.fingerprint, "/usr/bin/ssh-keygen"] {
            #expect(asked.contains(part), "\(part) in \(asked)")
        }
        #expect(asked.contains("ssh-keygen -Y sign -f"), "the command line: \(asked)")
        try tmux.type("y")
        #expect(commandResult(first.rc)?.contains("RC=0") == true, "\(tmux.captures.last ?? "")")
        #expect(try Self.verifies(first.message, each, sandbox))
        // The terminal is given back as it was: echo on, canonical.
        let modes = Set(
            (readBytes(modesFile).map { String(decoding: $0, as: UTF8.self) } ?? "").split(
                whereSeparator: { $0 == " " || $0 == ";" || $0 == "\n" }).map(String.init))
        #expect(modes.contains("echo") && modes.contains("icanon") && modes.contains("isig"), "\(modes)")

        let refused = try Self.sign(each, socket: socket, in: tmux, sandbox)
        try tmux.requirePane("asked again: each") { Self.occurrences(Self.question, in: $0) == 2 }
        try tmux.type("n")
        let result = commandResult(refused.rc)
        #expect(result != nil && result?.contains("RC=0") == false, "\(result ?? "none")")
        #expect(!FileManager.default.fileExists(atPath: refused.message + ".sig"))

        // A session key: asked for the first signature, not for the second by the same program.
        let generated = try sandbox.pwtui(["ssh", "generate", "--title", "session key", "--confirm", "session"])
        try #require(generated.exitCode == 0, "\(generated)")
        let session = try KeyFiles(sandbox, line: generated.out, name: "session")
        let once = try Self.sign(session, socket: socket, in: tmux, sandbox)
        try tmux.requirePane("session: asked the first time") { Self.occurrences(Self.question, in: $0) == 3 }
        try tmux.type("y")
        #expect(commandResult(once.rc)?.contains("RC=0") == true)
        let again = try Self.sign(session, socket: socket, in: tmux, sandbox)
        #expect(commandResult(again.rc)?.contains("RC=0") == true, "signed unasked")
        #expect(Self.occurrences(Self.question, in: try tmux.capture()) == 3, "not asked again")
        #expect(try Self.verifies(again.message, session, sandbox))
    }

    @Test("each, without a terminal (setsid in the pane, its streams not a terminal): refused unasked")
    func noTerminal() throws {
        let sandbox = try Sandbox.withVault()
        defer { sandbox.stopAgent() }
        let (line, _, socket) = try SSHAgentProgramTests.withKey(sandbox, confirm: "each")
        let key = try KeyFiles(sandbox, line: line, name: "each")
        let tmux = try TmuxSession.shellReady(sandbox: sandbox)
        let output = sandbox.scratch + "/setsid.out"
        let message = sandbox.root + "/detached-message"
        try "release 1.0\n".write(toFile: message, atomically: true, encoding: .utf8)
        let rc = sandbox.scratch + "/setsid.rc"
        try tmux.enter(
            "SSH_AUTH_SOCK='\(socket)' setsid -w ssh-keygen -Y sign -f '\(key.publicKey)' -n file '\(message)'"
                + " </dev/null 2>&1 | cat >'\(output)'; echo RC=${PIPESTATUS[0]} > '\(rc)'")
        let result = commandResult(rc, timeout: .seconds(20))
        #expect(result != nil && result?.contains("RC=0") == false, "\(result ?? "none")")
        #expect(!FileManager.default.fileExists(atPath: message + ".sig"))
        #expect(!(try tmux.capture()).contains(Self.question), "nobody was asked")
        // Why, on the requester's own stderr (a pipe, as an IDE or cron reads it).
        let said = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        #expect(said.contains("pwtui: not signed with your SSH key \"pwtui test key\" for ssh-keygen"), "\(said)")
        #expect(said.contains("pwtui ssh edit \"pwtui test key\" --confirm never"), "\(said)")
        // The same, run without setsid, is asked: the refusal was for want of a terminal.
        let attached = try Self.sign(key, socket: socket, in: tmux, sandbox)
        try tmux.requirePane("asked with a terminal") { $0.contains(Self.question) }
        try tmux.type("y")
        #expect(commandResult(attached.rc)?.contains("RC=0") == true)
    }

    @Test(
        "locked: a sign in the pane asks the master password there; after it the agent is unlocked and the signature verifies"
    )
    func lockedSign() throws {
        let sandbox = try Sandbox.withVault()
        defer { sandbox.stopAgent() }
        let (line, _, socket) = try SSHAgentProgramTests.withKey(sandbox, confirm: "session")
        let key = try KeyFiles(sandbox, line: line, name: "locked")
        let lock = try sandbox.pwtui(["agent", "lock"], password: .none)
        try #require(lock.exitCode == 0, "\(lock)")
        let tmux = try TmuxSession.shellReady(sandbox: sandbox)

        // A wrong password is asked once more; wrong twice: refused, still locked.
        let wrong = try Self.sign(key, socket: socket, in: tmux, sandbox)
        try tmux.requirePane("the master password asked in the pane") { $0.contains("Master password") }
        try tmux.type("not the password")
        try tmux.press("Enter")
        try tmux.requirePane("asked once more") { $0.contains("That was not the master password") }
        try tmux.type("not it either")
        try tmux.press("Enter")
        #expect(commandResult(wrong.rc, timeout: .seconds(30))?.contains("RC=0") == false)
        #expect(try sandbox.pwtui(["agent", "status"], password: .none).exitCode == 75, "still locked")

        let right = try Self.sign(key, socket: socket, in: tmux, sandbox)
        let asked = try tmux.requirePane("asked again") { Self.occurrences("Master password", in: $0) == 3 }
        #expect(asked.contains("The agent is locked") && asked.contains(key.fingerprint), "\(asked)")
        try tmux.type(sandbox.password)
        try tmux.press("Enter")
        #expect(commandResult(right.rc, timeout: .seconds(30))?.contains("RC=0") == true, "\(tmux.captures.last ?? "")")
        #expect(try Self.verifies(right.message, key, sandbox))
        #expect(try sandbox.pwtui(["agent", "status"], password: .none).exitCode == 0, "unlocked")
        #expect(!(try tmux.capture()).contains(sandbox.password), "the password was not echoed")
        // The session key's approval came with the password: the next signature asks nothing.
        let next = try Self.sign(key, socket: socket, in: tmux, sandbox)
        #expect(commandResult(next.rc)?.contains("RC=0") == true)
        #expect(!(try tmux.capture()).contains(Self.question))
    }

    @Test(
        "a real ssh login to a local sshd, approved in the pane, which names the bound host; a second login to it is not asked",
        .enabled(if: SSHAgentProgramTests.isRoot, "needs root: sshd"))
    func sshLogin() throws {
        let sandbox = try Sandbox.withVault()
        defer { sandbox.stopAgent() }
        // The agent reads the known_hosts of its own HOME: the sandbox's.
        let started = try sandbox.pwtui(
            ["agent", "start"], password: .none, environment: ["HOME": sandbox.root], timeout: .seconds(15))
        try #require(started.exitCode == 0, "\(started)")
        try #require(try sandbox.pwtui(["unlock"]).exitCode == 0)
        let generated = try sandbox.pwtui(["ssh", "generate", "--title", "pwtui test key", "--confirm", "session"])
        try #require(generated.exitCode == 0, "\(generated)")
        let line = generated.out
        let socket = try sandbox.pwtui(["ssh", "socket"], password: .none).out.trimmingCharacters(in: .newlines)
        let server = try SSHAgentProgramTests.sshd(sandbox, authorizing: line)
        defer { server.process.signal(SIGKILL) }
        // The server's host key in the known_hosts of the agent's HOME (the sandbox), under a
        // name: the connection's binding (session-bind) names the host in the question.
        let hostKey = try String(contentsOfFile: sandbox.root + "/keys/host.pub", encoding: .utf8).split(separator: " ")
        let knownHosts = sandbox.root + "/.ssh/known_hosts"
        try FileManager.default.createDirectory(atPath: sandbox.root + "/.ssh", withIntermediateDirectories: true)
        try "approval.test \(hostKey[0]) \(hostKey[1])\n".write(toFile: knownHosts, atomically: true, encoding: .utf8)
        let tmux = try TmuxSession.shellReady(sandbox: sandbox)
        let user = String(cString: getpwuid(getuid()).pointee.pw_name)
        func login() throws -> (output: String, rc: String) {
            let output = sandbox.scratch + "/" + UUID().uuidString + ".out"
            let rc = sandbox.scratch + "/" + UUID().uuidString + ".rc"
            try tmux.enter(
                "ssh -F /dev/null -p \(server.port) -o HostKeyAlias=approval.test -o HostKeyAlgorithms=ssh-ed25519"
                    + " -o UserKnownHostsFile='\(knownHosts)' -o StrictHostKeyChecking=yes"
                    + " -o LogLevel=ERROR -o IdentityAgent='\(socket)' -o PasswordAuthentication=no"
                    + " -o KbdInteractiveAuthentication=no \(user)@127.0.0.1 echo logged-in > '\(output)'; echo RC=$? > '\(rc)'"
            )
            return (output, rc)
        }
        let first = try login()
        let asked = try tmux.requirePane("ssh's signature asked in the pane") { $0.contains(Self.question) }
        #expect(asked.contains("pwtui: ssh asks to sign") && asked.contains("/usr/bin/ssh"), "\(asked)")
        #expect(asked.contains("for host: approval.test"), "the bound destination: \(asked)")
        try tmux.type("y")
        #expect(commandResult(first.rc, timeout: .seconds(30))?.contains("RC=0") == true, "\(tmux.captures.last ?? "")")
        #expect(readBytes(first.output).map { String(decoding: $0, as: UTF8.self) } == "logged-in\n")
        // The same program, key and host: remembered for the session, not asked again.
        let second = try login()
        #expect(
            commandResult(second.rc, timeout: .seconds(30))?.contains("RC=0") == true, "\(tmux.captures.last ?? "")")
        #expect(Self.occurrences(Self.question, in: try tmux.capture()) == 1)
    }

    /// A tmux server of the test's own at `socket` with one session `inner` running bash, and
    /// a function running tmux commands against it.
    static func innerServer(_ sandbox: Sandbox, socket: String) throws -> ([String]) throws -> RunResult {
        let run: ([String]) throws -> RunResult = { arguments in
            try sandbox.run(
                "/usr/bin/tmux", ["-S", socket] + arguments,
                environment: ["TERM": "xterm-256color", "HISTFILE": sandbox.scratch + "/inner_history"],
                detachTerminal: false, timeout: .seconds(10))
        }
        let made = try run([
            "new-session", "-d", "-s", "inner", "-x", "90", "-y", "24", "exec bash --norc --noprofile -i",
        ])
        try #require(made.exitCode == 0, "\(made)")
        return run
    }

    @Test(
        "inside tmux with a client attached: the question is a popup on that client, answered there, the pane untouched; the master password too"
    )
    func popup() throws {
        let sandbox = try Sandbox.withVault()
        defer { sandbox.stopAgent() }
        let (line, _, socket) = try SSHAgentProgramTests.withKey(sandbox, confirm: "each")
        let key = try KeyFiles(sandbox, line: line, name: "popup")
        let innerSocket = sandbox.root + "/inner.sock"
        let inner = try Self.innerServer(sandbox, socket: innerSocket)
        defer { _ = try? inner(["kill-server"]) }
        // The outer session's pane is the user's terminal, with a client of the inner server in it.
        let outer = try TmuxSession.shellReady(sandbox: sandbox)
        try outer.enter("TMUX= tmux -S '\(innerSocket)' attach -t inner")
        #expect(poll(timeout: .seconds(10)) { (try? inner(["list-clients"]))?.out.isEmpty == false })

        func sign() throws -> (message: String, rc: String) {
            let message = sandbox.root + "/popup-message-" + UUID().uuidString.prefix(8)
            try "release 1.0\n".write(toFile: message, atomically: true, encoding: .utf8)
            let rc = sandbox.scratch + "/" + UUID().uuidString + ".rc"
            let typed = try inner([
                "send-keys", "-t", "inner", "-l",
                "SSH_AUTH_SOCK='\(socket)' ssh-keygen -Y sign -f '\(key.publicKey)' -n file '\(message)'; echo RC=$? > '\(rc)'",
            ])
            try #require(typed.exitCode == 0, "\(typed)")
            _ = try inner(["send-keys", "-t", "inner", "Enter"])
            return (message, rc)
        }
        let signed = try sign()
        let asked = try outer.requirePane("the popup on the attached client") {
            $0.contains(Self.question) && $0.contains("│") && $0.contains("pwtui")
        }
        #expect(asked.contains(key.fingerprint) && asked.contains("ssh-keygen asks to sign"), "\(asked)")
        let pane = try inner(["capture-pane", "-p", "-t", "inner"]).out
        #expect(!pane.contains(Self.question), "not written into the pane: \(pane)")
        try outer.type("y")
        #expect(commandResult(signed.rc)?.contains("RC=0") == true, "\(outer.captures.last ?? "")")
        #expect(try Self.verifies(signed.message, key, sandbox))

        let refused = try sign()
        try outer.requirePane("asked again in a popup") { $0.contains(Self.question) && $0.contains("│") }
        try outer.type("n")
        #expect(commandResult(refused.rc)?.contains("RC=0") == false)

        // Locked: the master password is asked in the popup, and unlocks — while a program of the
        // same user watches the runtime directory, opening every FIFO and connecting to every
        // socket of a question there: it must get nothing (it got the password from the FIFO).
        let watcher = try Self.startWatcher(sandbox)
        let lock = try sandbox.pwtui(["agent", "lock"], password: .none)
        try #require(lock.exitCode == 0, "\(lock)")
        let unlocking = try sign()
        try outer.requirePane("the master password in a popup") { $0.contains("Master password") && $0.contains("│") }
        try outer.type(sandbox.password)
        try outer.press("Enter")
        // An `each` key: unlocked by the password, which approves this signature only.
        #expect(
            commandResult(unlocking.rc, timeout: .seconds(30))?.contains("RC=0") == true, "\(outer.captures.last ?? "")"
        )
        #expect(try sandbox.pwtui(["agent", "status"], password: .none).exitCode == 0, "unlocked")
        #expect(!(try outer.capture()).contains(sandbox.password))
        #expect(!(try inner(["capture-pane", "-p", "-t", "inner"]).out).contains("Master password"))
        let watched = try watcher.stop()
        #expect(!watched.read.contains(sandbox.password), "the watcher read: \(watched.read)")
        #expect(watched.log.contains("\nconnected"), "the watcher found the question's socket: \(watched.log)")
    }

    /// A program of the user that watches the agent's runtime directory: it reads every FIFO that
    /// appears (holding it open, as the agent does) and connects to every question's socket,
    /// offering a guess; what it read, and what it did.
    static let watcherScript = #"""
        import os, socket, stat, sys, time
        directory, read_path, log_path, stop_path = sys.argv[1:5]
        fifos, sockets, got, seen, started = {}, {}, b"", set(), False
        log = open(log_path, "a")
        while not os.path.exists(stop_path):
            for name in os.listdir(directory):
                path = os.path.join(directory, name)
                try:
                    mode = os.lstat(path).st_mode
                except OSError:
                    continue
                if name not in seen:
                    seen.add(name)
                    log.write("seen %s %o\n" % (name, mode)); log.flush()
                if stat.S_ISFIFO(mode) and path not in fifos:
                    try:
                        fifos[path] = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
                        log.write("opened %s\n" % name); log.flush()
                    except OSError:
                        pass
                if stat.S_ISSOCK(mode) and name.startswith("ssh-question-") and path not in sockets:
                    try:
                        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                        s.connect(path)
                        s.sendall(b"a guess")
                        s.shutdown(socket.SHUT_WR)
                        sockets[path] = s
                        log.write("connected %s\n" % name); log.flush()
                    except OSError:
                        pass
            for fd in fifos.values():
                try:
                    got += os.read(fd, 65536)
                except OSError:
                    pass
            if not started:
                started = True
                log.write("started\n"); log.flush()
            time.sleep(0.001)
        open(read_path, "wb").write(got)
        """#

    struct Watcher {
        let child: Child
        let read: String
        let log: String
        let stopFile: String

        func stop() throws -> (read: String, log: String) {
            _ = FileManager.default.createFile(atPath: stopFile, contents: Data())
            let ended = child.wait(timeout: .seconds(10))
            #expect(ended.exitCode == 0, "\(ended)")
            return (
                (try? String(contentsOfFile: read, encoding: .utf8)) ?? "",
                (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            )
        }
    }

    static func startWatcher(_ sandbox: Sandbox) throws -> Watcher {
        let script = sandbox.scratch + "/watcher.py"
        try watcherScript.write(toFile: script, atomically: true, encoding: .utf8)
        let read = sandbox.scratch + "/watcher.read"
        let log = sandbox.scratch + "/watcher.log"
        let stop = sandbox.scratch + "/watcher.stop"
        let child = try sandbox.start(
            "/usr/bin/env", ["python3", script, sandbox.root + "/xdg/runtime/pwtui", read, log, stop])
        // Watching before the agent makes anything to watch.
        try #require(
            poll(timeout: .seconds(10)) {
                (try? String(contentsOfFile: log, encoding: .utf8))?.contains("started") == true
            }, "the watcher did not start")
        return Watcher(child: child, read: read, log: log, stopFile: stop)
    }
}
