// One connection to the agent for request after request (`AgentKeptConnection`, the Secret
// Service's relay): the server answers each in turn, a client that does not wait for answers
// loses its connection after the first, and a kept connection the agent closed while idle is
// replaced without a request being sent twice.

import Foundation
import Platform
import PwtuiTestSupport
@testable import Commands
import ServiceMatching
import Testing
import VaultAgent
import VaultCrypto
import VaultModel

@Suite("Agent, one kept connection, in process")
struct AgentKeptConnectionInProcessTests {
    /// Counts what it is asked to count, from any thread.
    final class Counter: @unchecked Sendable {
        private let lock = Lock()
        private var counted = 0
        func add() { lock.withLock { counted += 1 } }
        var value: Int { lock.withLock { counted } }
    }

    /// A client of `fixture`'s agent keeping one connection, and how many it made.
    static func keptClient(of fixture: AgentInProcessTests.Fixture) -> (AgentClient, Counter) {
        let connections = Counter()
        let server = fixture.server
        let client = AgentClient(keepingConnection: true) {
            connections.add()
            return server.connectInProcess()
        }
        return (client, connections)
    }

    static func line(_ request: AgentRequest) throws -> [UInt8] {
        try AgentFraming.line(request, length: 0)
    }

    @Test("one connection carries an unlock and ten gets, each answered in turn")
    func requestAfterRequest() throws {
        let fixture = try AgentInProcessTests.Fixture()
        let (client, connections) = Self.keptClient(of: fixture)
        #expect(client.keepsConnection)
        let unlocked = try client.request(.unlock, payload: try SecureBytes(copying: Array("master".utf8)))?.body
        #expect(unlocked == .done)
        let query = CredentialQuery(services: [try ServiceIdentifier("github.com")])
        for _ in 0 ..< 10 {
            guard let answer = try client.get(query, field: .password, vault: fixture.context.vaultPath) else {
                Issue.record("the agent declined a get")
                return
            }
            #expect(AgentInProcessTests.text(answer.payload) == "gh-secret\n")
        }
        #expect(connections.value == 1)
    }

    @Test(
        "at the cap, one more connection evicts an idle kept one: its client asks again anew, and the change runs once")
    func evictedWhileIdle() throws {
        let fixture = try AgentInProcessTests.Fixture()
        let (client, connections) = Self.keptClient(of: fixture)
        #expect(try client.request(.unlock, payload: try SecureBytes(copying: Array("master".utf8)))?.body == .done)
        // The kept connection is the oldest idle one (its thread back to waiting for a request
        // after a moment); with the cap's last place taken, one more evicts it.
        Thread.sleep(forTimeInterval: 0.1)
        var idle: [AgentConnection] = []
        defer { idle.forEach { $0.descriptor.close() } }
        for _ in 0 ..< AgentServer.maximumConnections {
            idle.append(try #require(fixture.server.connectInProcess()))
        }
        let change = CredentialChange.add(services: ["gitlab.com"], username: "tanuki", title: "", notes: "", rank: 0)
        let answer = try client.request(
            .write(vault: fixture.context.vaultPath, change: change),
            payload: try SecureBytes(copying: Array("pw".utf8))
        )?.body
        guard case .identity = answer else {
            Issue.record("the change was not answered: \(String(describing: answer))")
            return
        }
        #expect(connections.value == 2, "asked again on a new connection")
        let reopened = try Vault.open(
            at: fixture.context.vaultPath, password: try SecureBytes(copying: Array("master".utf8)))
        #expect(reopened.contents.credentials.filter { $0.username == "tanuki" }.count == 1)
    }

    @Test("long work (an audit) goes on a connection of its own; the kept one carries everything else")
    func longWorkApart() throws {
        let fixture = try AgentInProcessTests.Fixture()
        let (client, connections) = Self.keptClient(of: fixture)
        let path = fixture.context.vaultPath
        #expect(try client.request(.unlock, payload: try SecureBytes(copying: Array("master".utf8)))?.body == .done)
        let audited = try client.ask(.audit(vault: path, options: AuditOptions()))?.body
        guard case .audit = audited else {
            Issue.record("the audit was not answered: \(String(describing: audited))")
            return
        }
        #expect(connections.value == 2, "the audit on a connection of its own")
        let query = CredentialQuery(services: [try ServiceIdentifier("github.com")])
        let found = try client.get(query, field: .password, vault: path)?.body
        #expect(found != nil)
        #expect(connections.value == 2, "the get on the kept one again")
    }

    @Test("a client that sends its next request before the answer gets the first answered, then the connection ends")
    func sendingPastTheRequest() throws {
        let fixture = try AgentInProcessTests.Fixture()
        let connection = try #require(fixture.server.connectInProcess())
        defer { connection.descriptor.close() }
        try connection.descriptor.writeAll(try Self.line(.status) + Self.line(.status))
        let first = try connection.receive(AgentReply.self)
        guard case .status = first.body else {
            Issue.record("the first request was not answered: \(first.body)")
            return
        }
        #expect(throws: AgentError.closedBeforeMessage) { _ = try connection.receive(AgentReply.self) }
    }

    @Test("a kept connection that hangs up between requests ends its thread, and the agent goes on serving")
    func hangingUpBetweenRequests() throws {
        let fixture = try AgentInProcessTests.Fixture()
        let connection = try #require(fixture.server.connectInProcess())
        try connection.send(AgentRequest.status)
        _ = try connection.receive(AgentReply.self)
        connection.descriptor.close()
        let stillServing = !AgentInProcessTests.declined(try fixture.client.request(.status))
        #expect(stillServing)
    }

    /// An agent stand-in that answers `status` on each connection `answering` times, then closes
    /// it without reading further: at once (`closingAtOnce`), or as the next request arrives (the
    /// agent closing a connection idle too long just as the client sends). Counts connections and
    /// the requests it read.
    final class ClosingAgent: @unchecked Sendable {
        let connections = Counter()
        let requests = Counter()
        let answering: Int
        let closingAtOnce: Bool

        /// After its answers, read the next request, then close without answering: an agent
        /// killed between reading a request and answering it.
        let readingTheNext: Bool

        init(answering: Int, closingAtOnce: Bool = false, readingTheNext: Bool = false) {
            self.answering = answering
            self.closingAtOnce = closingAtOnce
            self.readingTheNext = readingTheNext
        }

        func connect() -> AgentConnection? {
            guard let (mine, theirs) = try? UnixSocket.pair() else { return nil }
            connections.add()
            let (answering, closingAtOnce, readingTheNext, requests) = (
                answering, closingAtOnce, readingTheNext, requests
            )
            Thread.detachNewThread {
                defer { theirs.close() }
                for _ in 0 ..< answering {
                    let served = AgentConnection(theirs, timeout: .seconds(5))
                    guard (try? served.receive(AgentRequest.self)) != nil else { return }
                    requests.add()
                    try? served.send(
                        AgentReply.status(state: AgentStatus(locked: true, vault: "/any", locksInSeconds: 0, pid: 1)))
                }
                if readingTheNext {
                    if (try? AgentConnection(theirs, timeout: .seconds(5)).receive(AgentRequest.self)) != nil {
                        requests.add()
                    }
                } else if !closingAtOnce {
                    try? theirs.wait(for: .input, before: .after(.seconds(5)))
                }
            }
            return AgentConnection(mine, timeout: .seconds(5))
        }
    }

    @Test(
        "a kept connection the agent closed as the request came is replaced: answered on a new one, read once",
        arguments: [false, true])
    func replacedAfterTheAgentClosedIt(closingAtOnce: Bool) throws {
        let agent = ClosingAgent(answering: 1, closingAtOnce: closingAtOnce)
        let client = AgentClient(keepingConnection: true) { agent.connect() }
        #expect(!AgentInProcessTests.declined(try client.request(.status)))
        if closingAtOnce { Thread.sleep(forTimeInterval: 0.05) }
        #expect(!AgentInProcessTests.declined(try client.request(.status)))
        #expect(agent.connections.value == 2)
        #expect(agent.requests.value == 2)
    }

    @Test("a change the agent read and never answered (it died) is not sent again: the failure is the caller's")
    func aChangeIsNotAskedTwice() throws {
        let agent = ClosingAgent(answering: 1, readingTheNext: true)
        let client = AgentClient(keepingConnection: true) { agent.connect() }
        #expect(!AgentInProcessTests.declined(try client.request(.status)))
        let change = CredentialChange.add(services: ["gitlab.com"], username: "tanuki", title: "", notes: "", rank: 0)
        #expect(throws: AgentError.closedBeforeMessage) {
            _ = try client.request(.write(vault: "/any", change: change), payload: try SecureBytes(zeros: 0))
        }
        #expect(agent.connections.value == 1, "no second connection for the change")
        #expect(agent.requests.value == 2, "the status and the change, each read once")
    }

    @Test("a new connection that closes unanswered is not tried again: the failure is the caller's")
    func aNewConnectionIsNotRetried() throws {
        let agent = ClosingAgent(answering: 0)
        let client = AgentClient(keepingConnection: true) { agent.connect() }
        #expect(throws: AgentError.self) { _ = try client.request(.status) }
        #expect(agent.connections.value == 1)
    }
}
