import Platform
import VaultCrypto

/// One connection to the agent kept open for request after request, for a client that asks
/// many times a second for as long as it runs: the Secret Service's relay asks three or four
/// times for each secret a program reads, and a connection of its own each time (connect, the
/// agent's accept, a thread, the peer's /proc read) cost more than the answers did.
///
/// Requests go one at a time (a lock), each sent only after the answer to the one before
/// (`AgentServer` reads no further). The agent closes a connection that stays idle for
/// `AgentServer.keptIdleTime`, and evicts idle ones first when it has too many; so a connection
/// idle for longer than `reuseTime` is replaced before it is used, and one that ends before a
/// byte of its answer comes (`AgentError.closedBeforeMessage`, or a send that fails) is asked
/// again once, on a new connection — unless it is a change whose send went through
/// (`AgentRequest.changesVault`): the agent closes a connection unanswered before it has read a
/// request from it, but also when it dies after reading one (kill -9 mid-save), and a change
/// asked again of another agent, or made by the local path the caller then falls back to, would
/// be made twice. A change whose answer never came is the caller's failure, as on a connection
/// of its own.
final class AgentKeptConnection: @unchecked Sendable {
    /// Half the agent's idle time (`AgentServer.keptIdleTime`), so a connection is not reused
    /// just as the agent closes it.
    static let reuseTime = Duration.seconds(15)

    private let connect: @Sendable () -> AgentConnection?
    private let lock = Lock()
    /// Guarded by `lock`.
    private var descriptor: FileDescriptor?
    private var lastUsed = ContinuousClock.now
    /// What answers are read through (`AgentConnection.receive(_:reading:)`), made once.
    private var block: SecureBytes?

    init(connect: @escaping @Sendable () -> AgentConnection?) {
        self.connect = connect
    }

    deinit {
        descriptor?.close()
    }

    /// `send` on the kept connection (a new one when there is none, or it is stale), then the
    /// answer within `timeout`; nil when no agent listens.
    func exchange(
        timeout: Duration, askingAgain: Bool, _ send: (AgentConnection) throws -> Void
    ) throws -> AgentMessage<AgentReply>? {
        lock.lock()
        defer { lock.unlock() }
        if let kept = descriptor, ContinuousClock.now - lastUsed > Self.reuseTime || kept.hasHungUp {
            drop()
        }
        for _ in 0 ..< 2 {
            let reused = descriptor != nil
            guard let connection = reused ? descriptor.map({ AgentConnection($0, timeout: timeout) }) : connect()
            else { return nil }
            descriptor = connection.descriptor
            var sent = false
            do {
                do {
                    try send(connection)
                } catch AgentError.protocolError where reused {
                    // The agent closed its end (EPIPE): it read nothing from it.
                    throw AgentError.closedBeforeMessage
                }
                sent = true
                var reading: SecureBytes
                if let kept = block.take() { reading = kept } else { reading = try AgentConnection.block() }
                let answer = try connection.waiting(timeout).receive(AgentReply.self, reading: &reading)
                block = consume reading
                lastUsed = .now
                if answer.overran { drop() }
                return answer
            } catch AgentError.closedBeforeMessage where reused && (!sent || askingAgain) {
                // Not answered, on a connection the agent may have closed as idle: once more, anew.
                // Not a change that was sent: an agent that read it and then died (kill -9) closes
                // the same way, and another agent, or the local path the caller falls back to,
                // would make it a second time.
                drop()
            } catch {
                drop()
                throw error
            }
        }
        return nil
    }

    private func drop() {
        descriptor?.close()
        descriptor = nil
    }
}
