import Foundation

/// The agent's framing, decoded: a JSON header line, then `length` raw bytes. It lives here, not
/// in the executable, so that the agent-protocol fuzzer can link it; the socket I/O that feeds it
/// stays with `AgentConnection`.
public enum AgentWire {
    /// A header longer than this is refused before it is parsed: sized from the vault's own
    /// limits (`Limits`), so whatever a vault holds, the agent carries.
    public static let maximumHeaderBytes = Limits.agentMessageBytes
    /// The largest payload a message may announce (a rendered field, a master password).
    public static let maximumPayloadBytes = Limits.agentMessageBytes

    /// The header of one message, from its line (without the newline).
    public static func header(fromLine line: some Collection<UInt8>) throws(AgentError) -> [String: Any] {
        guard line.count < maximumHeaderBytes else { throw .protocolError("header too long") }
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: Data(line))
        } catch {
            throw .protocolError("header is not JSON")
        }
        guard let header = object as? [String: Any] else { throw .protocolError("header is not a JSON object") }
        return header
    }

    /// How many payload bytes follow a header.
    public static func payloadLength(of header: [String: Any]) throws(AgentError) -> Int {
        let length = header["length"] as? Int ?? 0
        guard length >= 0, length <= maximumPayloadBytes else { throw .protocolError("bad length") }
        return length
    }
}

public enum AgentError: Error, CustomStringConvertible {
    case protocolError(String)
    /// The peer sent or accepted nothing for this long: named as a timeout, not as a closed
    /// connection, so that a user looks for a stuck agent rather than a stopped one.
    case timedOut(seconds: Int)

    public var description: String {
        switch self {
        case .protocolError(let what): return "agent protocol: \(what)"
        case .timedOut(let seconds): return "the agent did not answer within \(seconds) s; it may be stuck (stop it, or kill it, and start it again)"
        }
    }
}
