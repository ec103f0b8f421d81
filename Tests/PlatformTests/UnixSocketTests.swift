import Foundation
import Platform
import Testing

@Suite struct UnixSocketTests {
    private func temporaryDirectory() throws -> String {
        let path = NSTemporaryDirectory() + "platform-tests-" + UUID().uuidString.prefix(8)
        try FileSystem.makeDirectory(path)
        return path
    }

    @Test func listenConnectAcceptAndExchange() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/agent.sock"
        let listener = try UnixSocket.listen(at: path)
        defer { listener.close() }
        #expect(try FileSystem.status(path).kind == .socket)
        #expect(try FileSystem.status(path).permissions == 0o600)

        #expect(try UnixSocket.accept(on: listener, waitingAtMost: .milliseconds(50)) == nil)
        let client = try UnixSocket.connect(to: path)
        defer { client.close() }
        let server = try #require(try UnixSocket.accept(on: listener, waitingAtMost: .seconds(2)))
        defer { server.close() }
        #expect(server.peerUserID == CurrentProcess.userID)

        try Array("hello".utf8).withUnsafeBytes { try client.sendAll($0, before: .after(.seconds(2))) }
        client.shutdown(.sending)
        var buffer = [UInt8](repeating: 0, count: 16)
        let got = try buffer.withUnsafeMutableBytes { try server.readSome(into: $0, before: .after(.seconds(2))) }
        #expect(Array(buffer[..<got]) == Array("hello".utf8))
        // After the peer's shutdown: the end of the stream, not a wait for the deadline.
        #expect(try buffer.withUnsafeMutableBytes { try server.readSome(into: $0, before: .after(.seconds(2))) } == 0)
    }

    @Test func connectingWhereNobodyListensFails() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(throws: SystemError.self) { try UnixSocket.connect(to: directory + "/none.sock") }
    }

    @Test func aSendToAPeerThatDoesNotReadTimesOut() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/s.sock"
        let listener = try UnixSocket.listen(at: path)
        defer { listener.close() }
        let client = try UnixSocket.connect(to: path)
        defer { client.close() }
        let server = try #require(try UnixSocket.accept(on: listener, waitingAtMost: .seconds(2)))
        defer { server.close() }
        // Far more than the socket buffers hold, and nobody reads: MSG_DONTWAIT and poll keep
        // the deadline instead of a send that blocks for ever.
        let big = [UInt8](repeating: 0x41, count: 16 * 1024 * 1024)
        #expect(throws: SystemError.timedOut) {
            try big.withUnsafeBytes { try client.sendAll($0, before: .after(.milliseconds(200))) }
        }
    }

    @Test func aSendToAClosedPeerIsAnErrorNotASignal() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/p.sock"
        let listener = try UnixSocket.listen(at: path)
        defer { listener.close() }
        let client = try UnixSocket.connect(to: path)
        defer { client.close() }
        let server = try #require(try UnixSocket.accept(on: listener, waitingAtMost: .seconds(2)))
        server.close()
        // MSG_NOSIGNAL: without it this process would die of SIGPIPE here, with the default action.
        let previous = signal(SIGPIPE, SIG_DFL)
        defer { signal(SIGPIPE, previous) }
        #expect(throws: SystemError.self) {
            for _ in 0 ..< 3 {
                try Array("x".utf8).withUnsafeBytes { try client.sendAll($0, before: .after(.seconds(1))) }
                Thread.sleep(forTimeInterval: 0.01)
            }
        }
    }
}
