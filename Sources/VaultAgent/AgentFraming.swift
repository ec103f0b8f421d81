import FoundationEssentials
import ServiceMatching
import VaultModel

/// The agent's framing: one JSON header line — the typed body (`AgentRequest` or `AgentReply`)
/// and the length of what follows — then `length` raw bytes. Secrets travel only as those raw
/// bytes, read into and written from protected memory; the header never holds one.
public enum AgentFraming {
    /// A header longer than this is refused before it is parsed: sized from the vault's own
    /// limits (`Limits`), so whatever a vault holds, the agent carries.
    public static let maximumHeaderBytes = Limits.agentMessageBytes
    /// The largest payload a message may announce (a rendered field, a master password).
    public static let maximumPayloadBytes = Limits.agentMessageBytes

    private struct Header<Body: Codable>: Codable {
        var length: Int
        var body: Body
    }

    /// The header line for `body` with `length` payload bytes after it, newline included.
    public static func line<Body: Codable>(_ body: Body, length: Int) throws(AgentError) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        do {
            return Array(try encoder.encode(Header(length: length, body: body))) + [0x0A]
        } catch {
            throw .protocolError("a message could not be encoded (\(error))")
        }
    }

    /// The body of one header line (without the newline) and the payload length it announces.
    public static func header<Body: Codable>(_ type: Body.Type, fromLine line: some Collection<UInt8>)
        throws(AgentError) -> (body: Body, length: Int)
    {
        guard line.count < maximumHeaderBytes else { throw .protocolError("header too long") }
        let header: Header<Body>
        do {
            header = try JSONDecoder().decode(Header<Body>.self, from: Data(line))
        } catch {
            throw .unreadable("a header that is not a \(Body.self) (\(Self.reason(error)))")
        }
        guard header.length >= 0, header.length <= maximumPayloadBytes else { throw .protocolError("bad length") }
        return (header.body, header.length)
    }

    /// What was wrong, without echoing the input (a header may have been meant for someone else).
    private static func reason(_ error: any Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context), DecodingError.keyNotFound(_, let context),
            DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            return context.debugDescription
        default:
            return "not JSON"
        }
    }
}

public enum AgentError: Error, CustomStringConvertible, Equatable {
    case protocolError(String)
    /// The connection ended before a byte of the message came: a kept connection the agent
    /// closed while it was idle (`AgentKeptConnection` asks again on a new one), or an agent
    /// that stopped.
    case closedBeforeMessage
    /// The peer sent or accepted nothing for this long: named as a timeout, not as a closed
    /// connection, so that a user looks for a stuck agent rather than a stopped one.
    case timedOut(seconds: Int)
    /// A well-framed line that is not a message of this version: a client or an agent of
    /// another pwtui (one started before an upgrade), or not pwtui at all.
    case unreadable(String)
    /// The agent's directory cannot be trusted (or made).
    case unsafeDirectory(String)
    /// A well-formed reply that does not answer the request (an agent of another version).
    case unexpected(AgentReply)

    public var description: String {
        switch self {
        case .protocolError(let what): return "agent protocol: \(what)"
        case .closedBeforeMessage:
            return
                "agent protocol: the connection closed before a message came (the agent may have stopped; if this was a change, `pwtui list` shows whether it was saved)"
        case .unsafeDirectory(let message): return message
        case .unreadable(let what):
            return
                "agent protocol: \(what); if an agent from before an upgrade is running, `pwtui agent stop` (or kill it) and start it again"
        case .unexpected:
            return
                "agent protocol: an answer that does not fit the request (is the running agent another version? `pwtui agent stop`)"
        case .timedOut(let seconds):
            return
                "the agent did not answer within \(seconds) s; it may be stuck (stop it, or kill it, and start it again)"
        }
    }
}

extension AgentError: ExitStatusReporting {
    /// The socket or the agent's answer failing: I/O, the vault unchanged.
    public var exitStatus: ExitStatus { .ioError }
}
