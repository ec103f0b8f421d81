// A background program that makes its own terminal to answer its own approval question: with
// no terminal it is refused, so it makes one (python's `pty.fork()`), runs `ssh-keygen -Y sign`
// on it, reads "Allow this signature?" on the master side and writes `y`. The agent must not
// ask there: the session was started by the requester's own tree, not a login, a multiplexer
// or a terminal emulator (docs/ssh.md, "Where it is asked"; issue 36).

import Foundation
import Platform
import Testing

@Suite("approval on a terminal the requester made for itself")
struct SSHApprovalPtyTests {
    static let selfAnswering = #"""
        import os, pty, select, sys, time
        socket_path, public_key, message, seen_path = sys.argv[1:5]
        pid, master = pty.fork()
        if pid == 0:
            os.environ["SSH_AUTH_SOCK"] = socket_path
            os.execvp("ssh-keygen", ["ssh-keygen", "-Y", "sign", "-f", public_key, "-n", "file", message])
        seen, answered, status = b"", False, None
        deadline = time.time() + 30
        while time.time() < deadline:
            ready, _, _ = select.select([master], [], [], 0.05)
            if ready:
                try:
                    got = os.read(master, 4096)
                except OSError:
                    got = b""
                seen += got
                if b"Allow this signature" in seen and not answered:
                    os.write(master, b"y")
                    answered = True
            done, waited = os.waitpid(pid, os.WNOHANG)
            if done:
                status = waited
                break
        open(seen_path, "wb").write(seen)
        print("answered" if answered else "not asked")
        print("RC=%s" % (os.waitstatus_to_exitcode(status) if status is not None else "timeout"))
        """#

    @Test("pty.fork() in a program with no terminal: the question is not asked on its pty, the signature refused")
    func selfMadeTerminal() throws {
        let sandbox = try Sandbox.withVault()
        defer { sandbox.stopAgent() }
        let (line, _, socket) = try SSHAgentProgramTests.withKey(sandbox, confirm: "each")
        let key = try SSHApprovalTmuxTests.KeyFiles(sandbox, line: line, name: "pty")
        let message = sandbox.root + "/pty-message"
        try "release 1.0\n".write(toFile: message, atomically: true, encoding: .utf8)
        let script = sandbox.root + "/self-answering.py"
        try Self.selfAnswering.write(toFile: script, atomically: true, encoding: .utf8)
        let seen = sandbox.root + "/pty-seen"
        let run = try sandbox.run(
            "/usr/bin/env", ["python3", script, socket, key.publicKey, message, seen], timeout: .seconds(40))
        let terminal = (try? String(contentsOfFile: seen, encoding: .utf8)) ?? ""
        #expect(run.out.contains("not asked"), "\(run)\n--- its terminal:\n\(terminal)")
        #expect(!terminal.contains("Allow this signature"), "\(terminal)")
        #expect(!run.out.contains("RC=0"), "\(run)")
        #expect(!FileManager.default.fileExists(atPath: message + ".sig"), "nothing signed")
    }
}
