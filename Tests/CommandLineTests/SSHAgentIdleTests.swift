// The ssh-agent socket under idle connections, with real OpenSSH clients: 32 connections that
// say nothing used to shut every client out (one more was closed at once); now one more evicts
// the connection idle longest, as pwtui's own socket does (issue 36).

import Foundation
import Platform
import Testing

@Suite("the ssh-agent socket evicts idle connections")
struct SSHAgentIdleTests {
    @Test("with 40 idle connections held open, ssh-add -L is still answered, and again")
    func idleConnectionsEvicted() throws {
        let sandbox = try Sandbox.withVault()
        defer { sandbox.stopAgent() }
        let (line, _, socket) = try SSHAgentProgramTests.withKey(sandbox)
        var idle: [FileDescriptor] = []
        defer { for connection in idle { connection.close() } }
        for _ in 0 ..< 40 {
            idle.append(try UnixSocket.connect(to: socket))
        }
        // Accepted, every one: now the socket is full of connections that say nothing.
        CurrentProcess.sleep(for: .milliseconds(300))
        let listed = try sandbox.run(
            "/usr/bin/ssh-add", ["-L"], environment: ["SSH_AUTH_SOCK": socket], timeout: .seconds(20))
        #expect(listed.exitCode == 0 && listed.out == line, "\(listed)")
        // Again, with the newest idle ones still open: each client evicts one more.
        let again = try sandbox.run(
            "/usr/bin/ssh-add", ["-L"], environment: ["SSH_AUTH_SOCK": socket], timeout: .seconds(20))
        #expect(again.exitCode == 0 && again.out == line, "\(again)")
        let evicted = idle.filter { connection in
            var byte: UInt8 = 0
            let got = withUnsafeMutableBytes(of: &byte) {
                try? connection.readSome(into: $0, before: .after(.milliseconds(20)))
            }
            return got == 0
        }
        #expect(evicted.count >= 2, "the oldest idle connections were closed by the agent")
    }
}
