// `PeerProcess`: a connection's peer as it was when accepted, and whether it still is. Real
// processes: one that exec's another program after the capture, and one that is gone.

import Foundation
import Platform
import Testing

@Suite("a connection's peer, captured when accepted")
struct PeerProcessTests {
    @Test("this process, through a socket pair: captured with its start and executable, and unchanged")
    func thisProcess() throws {
        let (one, other) = try UnixSocket.pair()
        defer {
            one.close()
            other.close()
        }
        let peer = try #require(PeerProcess.connected(to: one))
        #expect(peer.id == CurrentProcess.id)
        #expect(peer.executable == CurrentProcess.executablePath)
        #expect(peer.started > 0)
        #expect(peer.isUnchanged())
    }

    @Test("a process that exec'd another program since is no longer the peer; nor is one that ended")
    func execAndExit() throws {
        // The shell waits, then becomes `sleep`: the same pid, the same start, another program.
        let child = try ChildProcess.start("/bin/sh", ["-c", "read line; exec sleep 30"], input: .pipe)
        defer {
            child.kill()
            _ = child.wait()
        }
        let captured = try #require(PeerProcess.capture(child.id))
        #expect(captured.isUnchanged())
        #expect(captured.command == "sh")
        try child.input?.writeAll(Array("go\n".utf8))
        let deadline = Date().addingTimeInterval(5)
        while captured.isUnchanged(), Date() < deadline { usleep(10_000) }
        #expect(!captured.isUnchanged(), "after exec: \(String(describing: PeerProcess.capture(child.id)))")
        #expect(PeerProcess.capture(child.id)?.started == captured.started, "exec keeps the start")
        child.kill()
        _ = child.wait()
        #expect(!captured.isUnchanged(), "gone")
        #expect(PeerProcess.capture(child.id) == nil)
    }

    @Test("a reused pid starts later: the start time tells it from the process that connected")
    func reusedPid() throws {
        let me = try #require(PeerProcess.capture(CurrentProcess.id))
        let earlier = PeerProcess(id: me.id, started: me.started - 1, command: me.command, executable: me.executable)
        #expect(!earlier.isUnchanged())
    }
}
