import Foundation
import Platform
import Testing

@Suite struct FileDescriptorTests {
    @Test func writeAllDeliversALargeBufferWholeThroughAPipe() throws {
        // Far more than a pipe holds (64 KiB): writeAll must go on after partial writes while a
        // reader drains the other end.
        let (reading, writing) = try FileDescriptor.pipe()
        defer { reading.close() }
        let sent = (0 ..< 1_000_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        let received = Received()
        let reader = Thread {
            var chunk = [UInt8](repeating: 0, count: 8192)
            while let got = try? chunk.withUnsafeMutableBytes({ try reading.readSome(into: $0) }), got > 0 {
                received.append(chunk[..<got])
            }
            received.finish()
        }
        reader.start()
        try writing.writeAll(sent)
        writing.close()
        received.waitUntilFinished()
        #expect(received.bytes == sent)
    }

    @Test func readSomeAfterTheEndReturnsZeroEveryTime() throws {
        let (reading, writing) = try FileDescriptor.pipe()
        defer { reading.close() }
        try writing.writeAll("ab")
        writing.close()
        var buffer = [UInt8](repeating: 0, count: 16)
        #expect(try buffer.withUnsafeMutableBytes { try reading.readSome(into: $0) } == 2)
        #expect(try buffer.withUnsafeMutableBytes { try reading.readSome(into: $0) } == 0)
        #expect(try buffer.withUnsafeMutableBytes { try reading.readSome(into: $0, before: .after(.seconds(1))) } == 0)
        #expect(try reading.readByte() == nil)
    }

    @Test func readByteTakesOneByteAtATime() throws {
        let (reading, writing) = try FileDescriptor.pipe()
        defer { reading.close() }
        try writing.writeAll("xy")
        #expect(try reading.readByte() == UInt8(ascii: "x"))
        #expect(try reading.readByte() == UInt8(ascii: "y"))
        writing.close()
        #expect(try reading.readByte() == nil)
    }

    @Test func aSilentPipeTimesOutAtTheDeadline() throws {
        let (reading, writing) = try FileDescriptor.pipe()
        defer {
            reading.close()
            writing.close()
        }
        var buffer = [UInt8](repeating: 0, count: 16)
        let started = ContinuousClock.now
        #expect(throws: SystemError.timedOut) {
            try buffer.withUnsafeMutableBytes { try reading.readSome(into: $0, before: .after(.milliseconds(200))) }
        }
        let waited = ContinuousClock.now - started
        #expect(waited >= .milliseconds(200))
        #expect(waited < .seconds(2))
    }

    @Test func aPassedDeadlineDoesNotWaitForData() throws {
        let (reading, writing) = try FileDescriptor.pipe()
        defer {
            reading.close()
            writing.close()
        }
        #expect(throws: SystemError.timedOut) { try reading.wait(for: .input, before: .after(.zero)) }
        try writing.writeAll("z")
        try reading.wait(for: .input, before: .after(.zero))
    }

    @Test func aWriterWhoseReaderIsGoneGetsEPIPE() throws {
        SignalFlag.watchTermination()  // ignores SIGPIPE, as pwtui does
        let (reading, writing) = try FileDescriptor.pipe()
        defer { writing.close() }
        reading.close()
        #expect(throws: SystemError(code: EPIPE)) { try writing.writeAll("lost") }
        #expect(writing.hasHungUp)
    }

    @Test func writeOnlyDescriptorsAreToldApart() throws {
        let (reading, writing) = try FileDescriptor.pipe()
        defer {
            reading.close()
            writing.close()
        }
        #expect(writing.isWriteOnly == true)
        #expect(reading.isWriteOnly == false)
        #expect(FileDescriptor(rawValue: 987).isWriteOnly == nil)
        #expect(!reading.isTerminal)
        var byte: UInt8 = 0
        #expect(throws: SystemError(code: EBADF)) {
            try withUnsafeMutableBytes(of: &byte) { try writing.readSome(into: $0) }
        }
    }
}

/// Bytes a reader thread collects, and the moment it is done.
private final class Received: @unchecked Sendable {
    // @unchecked: guarded by `condition`.
    private let condition = NSCondition()
    private var collected: [UInt8] = []
    private var finished = false

    func append(_ chunk: ArraySlice<UInt8>) {
        condition.lock()
        collected += chunk
        condition.unlock()
    }

    func finish() {
        condition.lock()
        finished = true
        condition.broadcast()
        condition.unlock()
    }

    func waitUntilFinished() {
        condition.lock()
        while !finished { condition.wait() }
        condition.unlock()
    }

    var bytes: [UInt8] {
        condition.lock()
        defer { condition.unlock() }
        return collected
    }
}
