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
            guard let byte = next, byte != 0x0A else { break }
            guard line.count < maximumLength else {
                throw CommandFailure(.usage, "\(what): the line is longer than \(maximumLength) bytes")
            }
            try line.append(byte)
        }
        if line.withUnsafeBytes({ $0.last == 0x0D }) { line.removeLast(1) }
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

    /// A named field's value: the first line of stdin when it is not a terminal, else asked once
    /// on the terminal (without echo for a secret one: pasted or typed, like a key).
    static func fieldValue(label: String, secret: Bool, from streams: StandardStreams) throws -> SecureBytes {
        let value: SecureBytes
        if !streams.inputIsTerminal {
            value = try firstLine(of: streams.input.rawValue, what: "stdin")
        } else {
            guard let terminal = streams.terminal?.openPrompt() else {
                throw CommandFailure(.interactionRequired, "no terminal to ask for the \(label); pipe it to stdin")
            }
            value = try terminal.readSecret(prompt: "The \(label)\(secret ? "" : " (shown nowhere but here)"): ")
        }
        guard !value.isEmpty else {
            throw CommandFailure(.usage, "the \(label) is empty; --remove-field removes a field")
        }
        return value
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
