import FoundationEssentials
import Platform
import ServiceMatching
import VaultCrypto
import VaultModel

/// Talks to a running agent: one connection per request (or one kept for all of them:
/// `AgentKeptConnection`); nil answers when none listens.
public struct AgentClient: Sendable {
    /// The agent's socket; nil for an agent in this process (tests).
    public let socketPath: String?
    private let connector: @Sendable () -> AgentConnection?
    private let kept: AgentKeptConnection?

    /// How long a request and its answer may take in all (`AgentRequest.answerTimeout` gives
    /// long work longer).
    public static let answerTimeout = AgentRequest.answerTime

    /// `keepingConnection`: one connection for every request of this client (and its copies)
    /// but long work (`AgentRequest.isLongWork`).
    public init(socketPath: String, keepingConnection: Bool = false) {
        self.socketPath = socketPath
        let connect: @Sendable () -> AgentConnection? = {
            guard let descriptor = try? UnixSocket.connect(to: socketPath) else { return nil }
            return AgentConnection(descriptor, timeout: Self.answerTimeout)
        }
        connector = connect
        kept = keepingConnection ? AgentKeptConnection(connect: connect) : nil
    }

    /// A client of an agent reached some other way: `connect` opens a connection, nil when
    /// there is nobody to talk to (`AgentServer.connectInProcess`).
    public init(keepingConnection: Bool = false, connect: @escaping @Sendable () -> AgentConnection?) {
        socketPath = nil
        connector = connect
        kept = keepingConnection ? AgentKeptConnection(connect: connect) : nil
    }

    /// Whether its requests share one connection.
    public var keepsConnection: Bool { kept != nil }

    /// Refuses `directory`, where the agent's socket lives, unless it is a 0700 directory of
    /// this user (or does not exist yet); creates it 0700 when `creating`.
    public static func requireTrusted(_ directory: String, creating: Bool) throws(AgentError) {
        if creating {
            do {
                try FileSystem.makeDirectory(directory, permissions: 0o700)
            } catch  where !error.isAlreadyExisting {
                throw .unsafeDirectory("cannot create \(directory) (\(error))")
            } catch {}
        }
        if let status = try? FileSystem.status(directory) {
            guard status.ownerID == CurrentProcess.userID, status.permissions & 0o077 == 0 else {
                throw .unsafeDirectory("\(directory) must be a 0700 directory of this user; refusing to use it")
            }
        }
    }

    /// One request and its answer, whatever it is; nil when no agent listens.
    public func request(_ request: AgentRequest) throws -> AgentMessage<AgentReply>? {
        try exchange(request) { try $0.send(request) }
    }

    public func request(_ request: AgentRequest, payload: borrowing SecureBytes) throws -> AgentMessage<AgentReply>? {
        try exchange(request) { try $0.send(request, payload: payload) }
    }

    private func exchange(_ request: AgentRequest, _ send: (AgentConnection) throws -> Void) throws
        -> AgentMessage<AgentReply>?
    {
        // Long work (an audit the picker asks for on a thread of its own) on a connection of its
        // own: requests on the kept one wait for each other.
        if let kept, !request.isLongWork {
            return try kept.exchange(timeout: request.answerTimeout, askingAgain: !request.changesVault, send)
        }
        guard let connection = connector() else { return nil }
        defer { connection.descriptor.close() }
        try send(connection)
        return try connection.waiting(request.answerTimeout).receive(AgentReply.self)
    }

    /// Sends `request` without waiting for the answer (an unlock handed over in passing: the
    /// agent derives the key while the command that typed the password goes on), on a connection
    /// of its own: an answer nobody reads must not wait on a kept one. False when no agent listens.
    @discardableResult
    public func post(_ request: AgentRequest, payload: borrowing SecureBytes) throws -> Bool {
        guard let connection = connector() else { return false }
        defer { connection.descriptor.close() }
        try connection.send(request, payload: payload)
        return true
    }

    /// A request to an agent that should hold the vault unlocked: its answer, or nil when no
    /// agent runs, it is locked, it holds another vault, or it speaks another version's protocol
    /// (one left running across an upgrade) — the caller then unlocks on its own. Any other
    /// refusal is thrown, with the exit code it stands for.
    public func ask(_ request: AgentRequest) throws -> AgentMessage<AgentReply>? {
        do {
            return try Self.accepted(try self.request(request))
        } catch AgentError.unreadable {
            return nil
        }
    }

    public func ask(_ request: AgentRequest, payload: borrowing SecureBytes) throws -> AgentMessage<AgentReply>? {
        do {
            return try Self.accepted(try self.request(request, payload: payload))
        } catch AgentError.unreadable {
            return nil
        }
    }

    /// `field` of the credential `query` names, as the payload; nil when no agent holds
    /// `vault` unlocked.
    public func get(_ query: CredentialQuery, field: CredentialField, vault: String) throws -> AgentMessage<AgentReply>?
    {
        try ask(.get(vault: vault, query: query, field: field))
    }

    /// Every identity of `vault` and its equivalent domains, when an agent holds it unlocked.
    public func identities(vault: String, username: String? = nil) throws
        -> (identities: [IdentityStore.Identity], equivalents: EquivalentDomains)?
    {
        guard let answer = try ask(.identities(vault: vault, username: username)) else { return nil }
        guard case .identities(let identities, let equivalents) = answer.body else {
            throw AgentError.unexpected(answer.body)
        }
        return (identities, EquivalentDomains(groups: equivalents))
    }

    private static func accepted(_ reply: consuming AgentMessage<AgentReply>?) throws -> AgentMessage<AgentReply>? {
        guard let answer = reply else { return nil }
        if case .refused(let status, let message) = answer.body {
            if status == .interactionRequired { return nil }
            throw AgentRefusal(status: status, message: message)
        }
        return answer
    }
}

/// The agent said no, and which exit code that stands for.
public struct AgentRefusal: Error, CustomStringConvertible, Equatable {
    public let status: ExitStatus
    public let message: String

    public init(status: ExitStatus, message: String) {
        self.status = status
        self.message = message
    }

    public var description: String { message }
}

extension AgentRefusal: ExitStatusReporting {
    /// The code the agent put in its refusal: the command ends as it would have without the agent.
    public var exitStatus: ExitStatus { status }
}
