import Platform
import ServiceMatching
import TUI
import VaultCrypto
import VaultModel

/// Reads secrets from descriptors and the terminal into protected memory, never into a String.
enum SecretReader {
    /// The longest line accepted: a secret longer than this is a mistake (a file piped in).
    static let maximumLength = Limits.secretBytes

    /// Bytes up to the first newline (or the end), without the newline and a trailing CR.
    static func firstLine(of fd: Int32, what: String) throws -> SecureBytes {
        try read(fd, what: what, upToNewline: true, limit: maximumLength)
    }

    /// Everything up to the end of the input, without one trailing newline (LF or CRLF): a
    /// field's value, where every line counts (recovery codes, a note typed in). At most `limit`
    /// bytes; more is refused, never cut.
    static func allOf(_ fd: Int32, what: String, limit: Int) throws -> SecureBytes {
        var text = try read(fd, what: what, upToNewline: false, limit: limit)
        if text.withUnsafeBytes({ $0.last == 0x0A }) {
            text.removeLast(1)
            if text.withUnsafeBytes({ $0.last == 0x0D }) { text.removeLast(1) }
        }
        return text
    }

    /// Byte by byte, so that nothing past a first line is taken from a pipe another reader
    /// shares (the next line may be an authenticator key).
    private static func read(_ fd: Int32, what: String, upToNewline: Bool, limit: Int) throws -> SecureBytes {
        var line = try SecureBytes(capacity: 256)
        let source = FileDescriptor(rawValue: fd)
        while true {
            let next: UInt8?
            do {
                next = try source.readByte()
            } catch {
                if error.isBadDescriptor { throw CommandFailure(.usage, "\(what): \(unreadable(source))") }
                throw CommandFailure(.ioError, "\(what): reading descriptor \(fd) failed (errno \(error.code))")
            }
            guard let byte = next, !(upToNewline && byte == 0x0A) else { break }
            guard line.count < limit else {
                throw CommandFailure(
                    .usage, "\(what): \(upToNewline ? "the line" : "the input") is longer than \(limit) bytes")
            }
            try line.append(byte)
        }
        if upToNewline, line.withUnsafeBytes({ $0.last == 0x0D }) { line.removeLast(1) }
        return line
    }

    /// Why reading `fd` failed with EBADF: it is not open, or open for writing only (fd 1 is,
    /// when stdout goes to a file or a pipe).
    private static func unreadable(_ descriptor: FileDescriptor) -> String {
        let fd = descriptor.rawValue
        if descriptor.isWriteOnly == true {
            return
                "descriptor \(fd) is open for writing only, so the master password cannot be read from it; give a descriptor opened for reading (e.g. --master-password-fd 3 3<file)"
        }
        return "descriptor \(fd) is not open"
    }

    /// A new secret: from stdin when it is not a terminal; otherwise typed twice on the terminal.
    static func newSecret(label: String, from streams: StandardStreams) throws -> SecureBytes {
        if !streams.inputIsTerminal {
            let secret = try firstLine(of: streams.input.rawValue, what: "stdin")
            guard !secret.isEmpty else { throw CommandFailure(.usage, "the \(label) read from stdin is empty") }
            return secret
        }
        return try typedTwice(label: label, otherwise: "pipe it to stdin", from: streams)
    }

    /// A named field's value: all of stdin when it is not a terminal (a field is not a password:
    /// recovery codes and notes have many lines; one trailing newline is dropped), else one line
    /// asked on the terminal without echo (pasted or typed, like a key), the prompt saying how to
    /// give more than one.
    static func fieldValue(label: String, secret: Bool, from streams: StandardStreams) throws -> SecureBytes {
        let value: SecureBytes
        if !streams.inputIsTerminal {
            value = try allOf(
                streams.input.rawValue, what: "stdin", limit: secret ? Limits.secretBytes : Limits.notesBytes)
        } else {
            guard let terminal = streams.terminal?.openPrompt() else {
                throw CommandFailure(.interactionRequired, "no terminal to ask for the \(label); pipe it to stdin")
            }
            value = try terminal.readSecret(
                prompt:
                    "The \(label)\(secret ? "" : " (shown nowhere but here)"), one line (pipe it to stdin for more lines): "
            )
        }
        guard !value.isEmpty else {
            throw CommandFailure(.usage, "the \(label) is empty; --remove-field removes a field")
        }
        return value
    }

    /// A new item's secret field (a note's text, a card's number): all of stdin when it is not a
    /// terminal, else one line asked without echo; empty (nothing piped, Enter alone) when the
    /// item has none yet — a title is enough.
    static func optionalFieldValue(label: String, from streams: StandardStreams) throws -> SecureBytes {
        if !streams.inputIsTerminal {
            return try allOf(streams.input.rawValue, what: "stdin", limit: Limits.secretBytes)
        }
        guard let terminal = streams.terminal?.openPrompt() else { return try SecureBytes(zeros: 0) }
        return try terminal.readSecret(
            prompt: "The \(label), one line (pipe it to stdin for more lines; Enter alone for none): ")
    }

    /// An authenticator key (an `otpauth://totp/` URI or the base32 secret): the next line of stdin
    /// when it is not a terminal, else asked once without echo (it is pasted, and checked by
    /// parsing). Never from argv.
    static func oneTimeKey(for title: String, from streams: StandardStreams) throws -> ParsedOneTimeKey {
        let label = "authenticator key for \(title) (otpauth://totp/... or the base32 secret)"
        let text: SecureBytes
        if !streams.inputIsTerminal {
            text = try firstLine(of: streams.input.rawValue, what: "stdin")
        } else {
            guard let terminal = streams.terminal?.openPrompt() else {
                throw CommandFailure(.interactionRequired, "no terminal to ask for the \(label); pipe it to stdin")
            }
            text = try terminal.readSecret(prompt: "The \(label): ")
        }
        do {
            return try text.withUnsafeBytes { (bytes) throws(OTPAuth.Failure) in try OTPAuth.parse(bytes) }
        } catch {
            throw CommandFailure(.usage, "the \(label): \(error)")
        }
    }

    /// Asks twice on the terminal until both entries agree (three tries).
    /// `otherwise`: what works without a terminal, for the message when there is none.
    static func typedTwice(label: String, otherwise: String, from streams: StandardStreams) throws -> SecureBytes {
        guard let terminal = streams.terminal?.openPrompt() else {
            throw CommandFailure(.interactionRequired, "no terminal to ask for the \(label); \(otherwise)")
        }
        for _ in 0 ..< 3 {
            let first = try terminal.readSecret(prompt: "New \(label): ")
            guard !first.isEmpty else {
                terminal.say("The \(label) must not be empty.\n")
                continue
            }
            let second = try terminal.readSecret(prompt: "Repeat the \(label): ")
            if first.isEqual(to: second) { return first }
            terminal.say("The two entries differ; again.\n")
        }
        throw CommandFailure(.usage, "the \(label) was not confirmed")
    }
}
