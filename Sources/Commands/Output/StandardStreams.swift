import Platform
import TUI
import VaultCrypto

/// A command's standard streams and its terminal: where the answer goes (stdout: what a pipe,
/// git or a script reads), where words for the person go (stderr, held while a screen is open:
/// `HeldMessages`), what it reads (stdin), and how its screens and prompts reach the terminal.
///
/// Every command writes, reads and asks through the one its `CommandContext` carries, never through the
/// process's descriptors directly. The executable's are the process's own (`process`); a test's
/// record the answer and the messages, read a pipe, and script a `GridTerminal` and a
/// `ScriptedPrompt`, so every command runs in process exactly as it runs from a shell.
public final class StandardStreams {
    /// Where an answer is written, and whether a person reads it there.
    public protocol Destination: AnyObject {
        func writeAll(_ bytes: UnsafeRawBufferPointer) throws(SystemError)
        var isTerminal: Bool { get }
    }

    /// How screens and prompts reach the person: nil when there is nobody (no terminal).
    public struct TerminalAccess: Sendable {
        /// A full-screen terminal in a theme, its stderr held in `messages` while it is open.
        public var openScreen:
            @Sendable (_ theme: Theme, _ messages: HeldMessages, _ environment: Environment) throws -> any Terminal
        /// A line prompt (secrets without echo, yes/no), or nil when none can be opened.
        public var openPrompt: @Sendable () -> (any LinePrompt)?
        /// The terminal itself, open for writing escape sequences (the clipboard's OSC 52); the
        /// caller closes it. Nil when none can be opened.
        public var openDevice: @Sendable () -> FileDescriptor?

        public init(
            openScreen: @escaping @Sendable (Theme, HeldMessages, Environment) throws -> any Terminal,
            openPrompt: @escaping @Sendable () -> (any LinePrompt)?,
            openDevice: @escaping @Sendable () -> FileDescriptor?
        ) {
            self.openScreen = openScreen
            self.openPrompt = openPrompt
            self.openDevice = openDevice
        }

        /// The controlling terminal, /dev/tty: ncurses for screens, `TerminalPrompt` for lines.
        public static let controllingTerminal = TerminalAccess(
            openScreen: { theme, messages, environment in
                try NcursesTerminal(theme: theme, messages: messages, environment: environment)
            },
            openPrompt: { TerminalPrompt() },
            openDevice: { try? FileDescriptor.open("/dev/tty", [.writeOnly, .noControllingTerminal]) })
    }

    public let answer: any Destination
    /// stderr as bytes, for output that is not pwtui's own words: a child's (`pwtui run`).
    public let errors: any Destination
    public let messages: HeldMessages
    /// Whether the messages reach a person's terminal (git's tests read anything on a stderr
    /// that is not one as an error).
    public let messagesAreSeen: Bool
    public let input: FileDescriptor
    /// Whether stdin is a person typing (then secrets are asked for on the terminal instead).
    public let inputIsTerminal: Bool
    /// nil: no terminal for screens or prompts.
    public let terminal: TerminalAccess?

    public init(
        answer: any Destination, errors: any Destination = DescriptorDestination(.standardError),
        messages: HeldMessages, messagesAreSeen: Bool, input: FileDescriptor,
        inputIsTerminal: Bool, terminal: TerminalAccess?
    ) {
        self.answer = answer
        self.errors = errors
        self.messages = messages
        self.messagesAreSeen = messagesAreSeen
        self.input = input
        self.inputIsTerminal = inputIsTerminal
        self.terminal = terminal
    }

    /// The process's own stdout, stderr and stdin, and its controlling terminal.
    public static func process() -> StandardStreams {
        StandardStreams(
            answer: DescriptorDestination(.standardOutput), messages: .shared,
            messagesAreSeen: FileDescriptor.standardError.isTerminal, input: .standardInput,
            inputIsTerminal: FileDescriptor.standardInput.isTerminal, terminal: .controllingTerminal)
    }

    /// Whether the answer goes to a person's terminal (then a secret goes to the clipboard instead).
    public var answerIsTerminal: Bool { answer.isTerminal }

    public func write(_ text: String) throws {
        var text = text
        try text.withUTF8 { try write(UnsafeRawBufferPointer($0)) }
    }

    /// Writes the result of a change that is already saved. A failure here must not claim the
    /// vault is unchanged (74): it exits 73 and says what was saved.
    public func write(_ text: String, afterSaving saved: String) throws {
        do {
            try write(text)
        } catch let failure as CommandFailure {
            throw CommandFailure(.savedButUnconfirmed, "\(saved) is saved, but \(failure.message)")
        }
    }

    /// A secret goes from protected memory to the destination with no String and no copy between.
    public func write(_ bytes: UnsafeRawBufferPointer) throws {
        do {
            try answer.writeAll(bytes)
        } catch {
            if error.isBrokenPipe { throw CommandFailure(.ioError, "stdout was closed before the answer was written") }
            throw CommandFailure(.ioError, "writing to stdout failed: \(error)")
        }
    }

    public func write(_ secret: borrowing SecureBytes) throws {
        try secret.withUnsafeBytes { try write($0) }
    }

    /// A line for the person on stderr; it waits while a screen is open.
    public func say(_ text: String) {
        messages.say(text)
    }
}

/// A descriptor as the answer's destination: the process's stdout, written with write(2), so a
/// secret reaches it with no stdio buffer in between.
public final class DescriptorDestination: StandardStreams.Destination {
    public let descriptor: FileDescriptor

    public init(_ descriptor: FileDescriptor) {
        self.descriptor = descriptor
    }

    public func writeAll(_ bytes: UnsafeRawBufferPointer) throws(SystemError) {
        try descriptor.writeAll(bytes)
    }

    public var isTerminal: Bool { descriptor.isTerminal }
}
