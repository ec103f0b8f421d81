import Platform
import ServiceMatching
import TUI
import UnicodeText
import VaultCrypto

/// stdout, written with write(2): a secret goes from protected memory to the descriptor with no
/// String, no stdio buffer and no copy in between.
public enum StandardOutput {
    public static func write(_ text: String, to descriptor: FileDescriptor = .standardOutput) throws {
        var text = text
        try text.withUTF8 { try write(UnsafeRawBufferPointer($0), to: descriptor) }
    }

    /// Writes the result of a change that is already saved. A failure here must not claim the
    /// vault is unchanged (74): it exits 73 and says what was saved.
    public static func write(_ text: String, afterSaving saved: String) throws {
        do {
            try write(text)
        } catch let failure as CommandFailure {
            throw CommandFailure(.savedButUnconfirmed, "\(saved) is saved, but \(failure.message)")
        }
    }

    /// `descriptor`: stdout, unless the caller answers on another (git's helper in tests).
    public static func write(_ bytes: UnsafeRawBufferPointer, to descriptor: FileDescriptor = .standardOutput) throws {
        do {
            try descriptor.writeAll(bytes)
        } catch {
            if error.isBrokenPipe { throw CommandFailure(.ioError, "stdout was closed before the answer was written") }
            throw CommandFailure(.ioError, "writing to stdout failed: \(error)")
        }
    }

    public static func write(_ secret: borrowing SecureBytes) throws {
        try secret.withUnsafeBytes { try write($0) }
    }
}

/// Standard error: messages for the person at the terminal. While the picker or the wizard owns
/// the terminal they wait, and come after it (`HeldMessages`).
public enum StandardError {
    public static func say(_ text: String) {
        HeldMessages.shared.say(text)
    }

    /// The last word of a failed command, written at once: every screen is closed by then.
    public static func report(_ line: String) {
        try? FileDescriptor.standardError.writeAll(PrintableText.message(line) + "\n")
    }
}
