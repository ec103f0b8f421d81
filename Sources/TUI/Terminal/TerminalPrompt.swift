import Platform
import UnicodeText
import VaultCrypto

/// Line prompts on the controlling terminal (`/dev/tty`), never on stdin or stdout: those belong
/// to the pipeline pwtui is part of (`pwtui get github.com | wl-copy`).
///
/// A secret is read with the terminal in non-canonical mode without echo or signals, one byte at
/// a time, straight into `SecureBytes`: nothing is echoed, no line ever exists in a `String`, and
/// Ctrl-C arrives as a byte, so the terminal settings are always restored before pwtui exits.
public final class TerminalPrompt: LinePrompt {
    private let fd: FileDescriptor
    /// Whether `fd` is this prompt's to close.
    private let ownsTerminal: Bool
    /// How long each answer may take; nil: as long as the person needs.
    private let answerTime: Duration?

    /// The controlling terminal, or nil when there is none (cron, CI, a detached service).
    public init?(path: String = "/dev/tty") {
        guard let fd = try? FileDescriptor.open(path, [.readWrite, .noControllingTerminal]) else { return nil }
        guard fd.isTerminal else {
            fd.close()
            return nil
        }
        self.fd = fd
        ownsTerminal = true
        answerTime = nil
    }

    /// Prompts on a terminal opened by the caller, who closes it: another process's, where the
    /// agent asks for an SSH signature (`SSHRequesterTerminal`). With `answerTime`, a read that
    /// waits longer is a cancel: nobody may be there.
    public init(on terminal: FileDescriptor, answerTime: Duration?) {
        fd = terminal
        ownsTerminal = false
        self.answerTime = answerTime
    }

    deinit {
        if ownsTerminal { fd.close() }
    }

    /// Writes text to the terminal (prompts, confirmations); a terminal gone is not an error
    /// here: the read that follows reports it.
    public func say(_ text: String) {
        try? fd.writeAll(PrintableText.message(text))
    }

    /// Asks for a secret without echo. Enter ends it; Backspace and Ctrl-U edit it; Ctrl-C,
    /// Ctrl-D on an empty line and Esc cancel.
    public func readSecret(prompt: String) throws(PromptError) -> SecureBytes {
        // Echo goes off before the prompt appears, as getpass does: keys typed the moment the
        // prompt shows must not be echoed.
        let saved = try enterRawMode()
        defer {
            fd.restore(saved)
            say("\n")
        }
        say(prompt)
        let deadline = answerTime.map { Deadline.after($0) }
        var secret: SecureBytes
        do {
            secret = try SecureBytes(capacity: 256)
        } catch {
            throw .crypto(error)
        }
        while true {
            let byte = try readByte(before: deadline)
            switch byte {
            case 0x0A, 0x0D:
                return secret
            case 0x03, 0x1B:
                throw .cancelled
            case 0x04 where secret.isEmpty:
                throw .cancelled
            case 0x7F, 0x08:
                secret.removeLastCharacter()
            case 0x15:
                secret.removeAll()
            default:
                do {
                    try secret.append(byte)
                } catch {
                    throw .crypto(error)
                }
            }
        }
    }

    /// Asks a yes/no question; only `y` or `yes` (any case) is yes.
    public func confirm(_ question: String) throws(PromptError) -> Bool {
        say(question + " [y/N] ")
        let saved = try enterRawMode()
        defer { fd.restore(saved) }
        var answer: [UInt8] = []
        while true {
            let byte = try readByte()
            switch byte {
            case 0x0A, 0x0D:
                say("\n")
                let text = String(decoding: answer, as: UTF8.self).lowercased()
                return text == "y" || text == "yes"
            case 0x03, 0x1B, 0x04:
                say("\n")
                throw .cancelled
            case 0x7F, 0x08:
                if !answer.isEmpty {
                    answer.removeLast()
                    say("\u{8} \u{8}")
                }
            default:
                if answer.count < 16 {
                    answer.append(byte)
                    say(String(decoding: [byte], as: UTF8.self))
                }
            }
        }
    }

    /// Non-canonical, no signals, and no echo (the confirmation echoes by hand).
    private func enterRawMode() throws(PromptError) -> TerminalSettings {
        do {
            return try fd.enterRawInputMode()
        } catch {
            throw .io(error.code)
        }
    }

    /// The next byte typed; cancelled at the end of input, or when `deadline` passes first.
    private func readByte(before deadline: Deadline? = nil) throws(PromptError) -> UInt8 {
        var byte: UInt8 = 0
        let got: Int
        do {
            got = try withUnsafeMutableBytes(of: &byte) { (buffer) throws(SystemError) in
                if let deadline {
                    try fd.readSome(into: buffer, before: deadline)
                } else {
                    try fd.readSome(into: buffer)
                }
            }
        } catch {
            if error.isTimeout { throw .cancelled }
            throw .io(error.code)
        }
        guard got == 1 else { throw .cancelled }
        return byte
    }
}
