#if canImport(Glibc)
import Glibc
#endif
import Foundation
import VaultCrypto
import VaultModel

/// One request or answer on the agent's socket: a JSON header line, then `length` raw bytes
/// (a master password going in, a requested field coming out). Secrets travel only as those raw
/// bytes, read into and written from protected memory.
struct AgentConnection {
    let fd: Int32

    /// Gives up on a silent peer: the agent serves one client at a time.
    func setTimeout(seconds: Int) {
        var time = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
    }

    func send(_ header: [String: Any]) throws {
        try sendHeader(header, length: 0)
    }

    func send(_ header: [String: Any], payload: borrowing SecureBytes) throws {
        try sendHeader(header, length: payload.count)
        try payload.withUnsafeBytes { try writeAll($0) }
    }

    private func sendHeader(_ header: [String: Any], length: Int) throws {
        var header = header
        header["length"] = length
        var line = try JSONSerialization.data(withJSONObject: header, options: [.sortedKeys])
        line.append(0x0A)
        try line.withUnsafeBytes { try writeAll($0) }
    }

    /// The header, and the payload in protected memory.
    func receive() throws -> AgentMessage {
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let got = read(fd, &byte, 1)
            if got < 0, errno == EINTR { continue }
            guard got == 1 else { throw AgentError.protocolError("the connection closed before a whole answer came (the agent may have stopped; if this was a change, `pwtui list` shows whether it was saved)") }
            if byte == 0x0A { break }
            line.append(byte)
            guard line.count < Limits.agentMessageBytes else { throw AgentError.protocolError("header too long") }
        }
        guard let header = try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any] else {
            throw AgentError.protocolError("header is not a JSON object")
        }
        let length = header["length"] as? Int ?? 0
        guard length >= 0, length <= Limits.agentMessageBytes else { throw AgentError.protocolError("bad length") }
        var payload = try SecureBytes(zeros: length)
        var filled = 0
        while filled < length {
            let got = payload.withUnsafeMutableBytes { buffer in
                buffer.baseAddress.map { read(fd, $0 + filled, length - filled) } ?? 0
            }
            if got < 0, errno == EINTR { continue }
            guard got > 0 else { throw AgentError.protocolError("payload cut short") }
            filled += got
        }
        return AgentMessage(header: header, payload: payload)
    }

    private func writeAll(_ bytes: UnsafeRawBufferPointer) throws {
        guard let base = bytes.baseAddress else { return }
        var offset = 0
        while offset < bytes.count {
            // MSG_NOSIGNAL: a peer that went away (an agent killed mid-request) is an error to
            // report, not a SIGPIPE that kills the client without a word.
            let written = Glibc.send(fd, base + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { throw AgentError.protocolError("the connection broke while sending (errno \(errno)): the agent may have stopped") }
            offset += written
        }
    }
}

/// A received header and its payload.
struct AgentMessage: ~Copyable {
    var header: [String: Any]
    var payload: SecureBytes

    /// The credential an answer is about (never its secret), when it names one.
    var identity: IdentityStore.Identity? {
        (header["identity"] as? [String: Any]).flatMap { try? IdentityStore.Identity(fields: $0) }
    }

    consuming func takePayload() -> SecureBytes { payload }
}

enum AgentError: Error, CustomStringConvertible {
    case protocolError(String)

    var description: String {
        switch self {
        case .protocolError(let what): return "agent protocol: \(what)"
        }
    }
}
