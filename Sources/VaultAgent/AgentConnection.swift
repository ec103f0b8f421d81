import FoundationEssentials
import Platform
import VaultCrypto
import VaultModel

/// One request or answer on the agent's socket: a JSON header line, then `length` raw bytes
/// (a master password going in, a requested field coming out). Secrets travel only as those raw
/// bytes, read into and written from protected memory.
///
/// Every exchange has a deadline for the whole of it, not per read: a peer that trickles a byte a
/// second would reset a per-read timeout forever. Waiting is `poll` with what is left of the
/// deadline, so a silent peer costs its own connection the time and nobody else.
public struct AgentConnection {
    public let descriptor: FileDescriptor
    public let timeout: Duration
    private let deadline: Deadline

    public init(_ descriptor: FileDescriptor, timeout: Duration) {
        self.descriptor = descriptor
        self.timeout = timeout
        deadline = .after(timeout)
    }

    /// The same connection with a fresh deadline of `timeout`: a reply awaited for as long as its
    /// request may take.
    public func waiting(_ timeout: Duration) -> AgentConnection {
        AgentConnection(descriptor, timeout: timeout)
    }

    public func send<Body: Codable>(_ body: Body) throws {
        try AgentFraming.line(body, length: 0).withUnsafeBytes { try sendAll($0) }
    }

    public func send<Body: Codable>(_ body: Body, payload: borrowing SecureBytes) throws {
        try AgentFraming.line(body, length: payload.count).withUnsafeBytes { try sendAll($0) }
        try payload.withUnsafeBytes { try sendAll($0) }
    }

    /// The body, and the payload in protected memory. Bytes come in blocks; a block can run past
    /// the header into the payload, a secret, so blocks land in protected memory too.
    public func receive<Body: Codable>(_ type: Body.Type) throws -> AgentMessage<Body> {
        var block = try Self.block()
        return try receive(type, reading: &block)
    }

    /// A block for `receive(_:reading:)`: one kept by a connection that carries message after
    /// message saves a protected allocation (several system calls) on each.
    public static func block() throws -> SecureBytes {
        try SecureBytes(zeros: 4096)
    }

    /// `receive`, reading through `block` (from `block()`), which is left zeroed.
    public func receive<Body: Codable>(_ type: Body.Type, reading block: inout SecureBytes) throws
        -> AgentMessage<Body>
    {
        defer { _ = block.withUnsafeMutableBytes { $0.initializeMemory(as: UInt8.self, repeating: 0) } }
        var line: [UInt8] = []
        var afterLine: Range<Int>?
        while afterLine == nil {
            let got = try block.withUnsafeMutableBytes { try readSome(into: $0, atStart: line.isEmpty) }
            guard got > 0 else {
                guard line.isEmpty else {
                    throw AgentError.protocolError(
                        "the connection closed before a whole message came (the agent may have stopped; if this was a change, `pwtui list` shows whether it was saved)"
                    )
                }
                throw AgentError.closedBeforeMessage
            }
            let newline = block.withUnsafeBytes { $0[..<got].firstIndex(of: 0x0A) }
            line += block.withUnsafeBytes { Array($0[..<(newline ?? got)]) }
            guard line.count < AgentFraming.maximumHeaderBytes else {
                throw AgentError.protocolError("header too long")
            }
            if let newline { afterLine = newline + 1 ..< got }
        }
        let (body, length) = try AgentFraming.header(Body.self, fromLine: line)
        var payload = try SecureBytes(zeros: length)
        // A peer sends its next message only after the answer to this one: bytes past the
        // announced payload are not read as a message (`AgentMessage.overran`).
        let leftover = afterLine ?? 0 ..< 0
        let early = leftover.lowerBound ..< min(leftover.upperBound, leftover.lowerBound + length)
        block.withUnsafeBytes { source in
            payload.withUnsafeMutableBytes { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[early])) }
        }
        var filled = early.count
        while filled < length {
            let got = try payload.withUnsafeMutableBytes {
                try readSome(into: UnsafeMutableRawBufferPointer(rebasing: $0[filled...]))
            }
            guard got > 0 else { throw AgentError.protocolError("payload cut short") }
            filled += got
        }
        return AgentMessage(body: body, payload: payload, overran: early.count < leftover.count)
    }

    /// Ends sending, then throws away whatever the peer still sends (never looking at it) until
    /// it hangs up or `time` passes.
    public func discardUntilClosed(within time: Duration) {
        descriptor.shutdown(.sending)
        let bounded = AgentConnection(descriptor, timeout: time)
        var sink = [UInt8](repeating: 0, count: 4096)
        while let got = try? sink.withUnsafeMutableBytes({ try bounded.readSome(into: $0) }), got > 0 {}
    }

    /// Up to `buffer.count` bytes once some arrive; 0 at the end of the stream. `atStart`: no
    /// byte of the message has come yet, so a peer that closed with our request unread in its
    /// socket (ECONNRESET) never read it.
    private func readSome(into buffer: UnsafeMutableRawBufferPointer, atStart: Bool = false) throws -> Int {
        do {
            return try descriptor.readSome(into: buffer, before: deadline)
        } catch  where error.isTimeout {
            throw AgentError.timedOut(seconds: Int(timeout.components.seconds))
        } catch  where atStart && error.isConnectionReset {
            throw AgentError.closedBeforeMessage
        } catch {
            throw AgentError.protocolError("the connection broke while receiving (\(error))")
        }
    }

    private func sendAll(_ bytes: UnsafeRawBufferPointer) throws {
        do {
            try descriptor.sendAll(bytes, before: deadline)
        } catch  where error.isTimeout {
            throw AgentError.timedOut(seconds: Int(timeout.components.seconds))
        } catch {
            throw AgentError.protocolError("the connection broke while sending (\(error)): the agent may have stopped")
        }
    }
}

/// A received body and its payload.
public struct AgentMessage<Body>: ~Copyable {
    public var body: Body
    public var payload: SecureBytes
    /// Whether more bytes came after it before it was answered: a peer that does not wait for
    /// answers, whose connection ends after this one.
    public var overran = false

    public init(body: Body, payload: consuming SecureBytes, overran: Bool = false) {
        self.body = body
        self.payload = payload
        self.overran = overran
    }

    public consuming func takePayload() -> SecureBytes { payload }
}
