#if canImport(Glibc)
import Glibc
#endif
import Foundation
import VaultCrypto
import VaultModel
import ServiceMatching

/// Talks to a running agent; nil from `connect` when none listens.
struct AgentClient {
    let socketPath: String

    /// `$XDG_RUNTIME_DIR/pwtui/agent.sock`, else `/tmp/pwtui-<uid>/agent.sock`; the directory is
    /// created 0700 and must be owned by this user.
    static func socketPath(creating: Bool = false) throws -> String {
        let runtime = ProcessInfo.processInfo.environment["XDG_RUNTIME_DIR"].flatMap { $0.isEmpty ? nil : $0 }
        let directory = runtime.map { $0 + "/pwtui" } ?? "/tmp/pwtui-\(getuid())"
        if creating, mkdir(directory, 0o700) != 0, errno != EEXIST {
            throw CommandFailure(.ioError, "cannot create \(directory) (errno \(errno))")
        }
        var info = stat()
        if stat(directory, &info) == 0 {
            guard info.st_uid == getuid(), info.st_mode & 0o077 == 0 else {
                throw CommandFailure(.ioError, "\(directory) must be a 0700 directory of this user; refusing to use it")
            }
        }
        return directory + "/agent.sock"
    }

    /// The agent of this user, if its directory is sound (a client never creates it).
    static var current: AgentClient? {
        (try? socketPath()).map(AgentClient.init(socketPath:))
    }

    /// How long a request and its answer may take in all; an unlock with the strongest key
    /// derivation the agent accepts takes a few seconds of it.
    static let answerTimeout = Duration.seconds(10)

    func connect() -> AgentConnection? {
        guard case .success(let fd) = ProcessControl.connect(to: socketPath) else { return nil }
        return AgentConnection(fd: fd, timeout: Self.answerTimeout)
    }

    /// One request and its answer; nil when no agent listens.
    func request(_ header: [String: Any]) throws -> AgentMessage? {
        guard let connection = connect() else { return nil }
        defer { close(connection.fd) }
        try connection.send(header)
        return try connection.receive()
    }

    func request(_ header: [String: Any], payload: borrowing SecureBytes) throws -> AgentMessage? {
        guard let connection = connect() else { return nil }
        defer { close(connection.fd) }
        try connection.send(header, payload: payload)
        return try connection.receive()
    }

    /// A request to an agent that should hold the vault unlocked: its answer, or nil when no
    /// agent runs, it is locked, or it holds another vault — the caller then unlocks on its own.
    /// Any other refusal is thrown with the agent's exit code and message.
    func ask(_ header: [String: Any]) throws -> AgentMessage? {
        try accepted(try request(header))
    }

    func ask(_ header: [String: Any], payload: borrowing SecureBytes) throws -> AgentMessage? {
        try accepted(try request(header, payload: payload))
    }

    /// The agent's answer to `query`: `field` of the credential as the payload, its identity in
    /// the header ("identity"); nil when no agent holds `vault` unlocked.
    func get(_ query: CredentialQuery, field: CredentialField, vault: String) throws -> AgentMessage? {
        try ask(query.fields.merging(["op": "get", "vault": vault, "field": field.rawValue]) { _, new in new })
    }

    /// Every identity of `vault` and its equivalent domains, when an agent holds it unlocked.
    func identities(vault: String) throws -> (identities: [IdentityStore.Identity], equivalents: EquivalentDomains)? {
        guard let answer = try ask(["op": "identities", "vault": vault]) else { return nil }
        let identities = try (answer.header["identities"] as? [[String: Any]] ?? []).map { try IdentityStore.Identity(fields: $0) }
        return (identities, EquivalentDomains(groups: answer.header["equivalents"] as? [[String]] ?? []))
    }

    private func accepted(_ reply: consuming AgentMessage?) throws -> AgentMessage? {
        guard let answer = reply else { return nil }
        guard answer.header["ok"] as? Bool == true else {
            let refusal = Self.refusal(answer.header)
            if refusal.code == .interactionRequired { return nil }
            throw refusal
        }
        return answer
    }

    /// The error an answer with `ok: false` stands for: the agent's exit code and message.
    static func refusal(_ header: [String: Any]) -> CommandFailure {
        CommandFailure(ExitStatus(rawValue: Int32(header["code"] as? Int ?? 74)) ?? .ioError,
                       header["message"] as? String ?? "the agent refused")
    }
}
