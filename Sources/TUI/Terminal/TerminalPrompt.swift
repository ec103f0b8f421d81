#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import VaultCrypto

/// Line prompts on the controlling terminal (`/dev/tty`), never on stdin or stdout: those belong
/// to the pipeline pwtui is part of (`pwtui get github.com | wl-copy`).
///
/// A secret is read with the terminal in non-canonical mode without echo or signals, one byte at
/// a time, straight into `SecureBytes`: nothing is echoed, no line ever exists in a `String`, and
/// Ctrl-C arrives as a byte, so the terminal settings are always restored before pwtui exits.
public final class TerminalPrompt {
    private let fd: Int32

    /// The controlling terminal, or nil when there is none (cron, CI, a detached service).
    public init?(path: String = "/dev/tty") {
        let fd = open(path, O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        guard isatty(fd) == 1 else {
            close(fd)
            return nil
        }
        self.fd = fd
    }

    deinit {
        close(fd)
    }

    /// Writes text to the terminal (prompts, confirmations).
    public func say(_ text: String) {
        var text = PrintableText.forTerminal(text)
        text.withUTF8 { utf8 in
            var offset = 0
            while offset < utf8.count {
                let written = write(fd, utf8.baseAddress.map { $0 + offset }, utf8.count - offset)
                if written < 0, errno == EINTR { continue }
                guard written > 0 else { return }
                offset += written
            }
        }
    }

    /// Asks for a secret without echo. Enter ends it; Backspace and Ctrl-U edit it; Ctrl-C,
    /// Ctrl-D on an empty line and Esc cancel.
    public func readSecret(prompt: String) throws(PromptError) -> SecureBytes {
        // Echo goes off before the prompt appears, as getpass does: keys typed the moment the
        // prompt shows must not be echoed.
        let saved = try enterRawMode()
        defer {
            var restore = saved
            tcsetattr(fd, TCSAFLUSH, &restore)
            say("\n")
        }
        say(prompt)
        var secret: SecureBytes
        do {
            secret = try SecureBytes(capacity: 256)
        } catch {
            throw .crypto(error)
        }
        while true {
            let byte = try readByte()
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
        defer {
            var restore = saved
            tcsetattr(fd, TCSAFLUSH, &restore)
        }
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
    private func enterRawMode() throws(PromptError) -> termios {
        var original = termios()
        guard tcgetattr(fd, &original) == 0 else { throw .io(errno) }
        var raw = original
        raw.c_lflag &= ~tcflag_t(ECHO | ECHONL | ICANON | ISIG | IEXTEN)
        raw.c_iflag &= ~tcflag_t(IXON | ICRNL)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        guard tcsetattr(fd, TCSAFLUSH, &raw) == 0 else { throw .io(errno) }
        return original
    }

    private func readByte() throws(PromptError) -> UInt8 {
        var byte: UInt8 = 0
        while true {
            let got = read(fd, &byte, 1)
            if got == 1 { return byte }
            if got < 0, errno == EINTR { continue }
            if got == 0 { throw .cancelled }
            throw .io(errno)
        }
    }
}

public enum PromptError: Error, Equatable, CustomStringConvertible {
    case cancelled
    case io(Int32)
    case crypto(VaultCryptoError)

    public var description: String {
        switch self {
        case .cancelled: return "cancelled"
        case .io(let code): return "terminal error \(code)"
        case .crypto(let error): return error.description
        }
    }
}
