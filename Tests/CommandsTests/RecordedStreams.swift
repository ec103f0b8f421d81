import Glibc
import Platform
@testable import Commands
import Synchronization
import TUI
import TUITestDoubles

/// A command's standard streams in a test (`StandardStreams`): the answer and the messages
/// recorded, stdin from the bytes given, and a terminal only when the test scripts one (a
/// `GridTerminal` for screens, a `ScriptedPrompt` for prompts). Without one, a command meets what
/// a process without a terminal meets.
final class RecordedStreams {
    /// stdout: the bytes written, whether it poses as a terminal, and whether it is closed (a
    /// reader gone: every write fails with EPIPE).
    final class Answer: StandardStreams.Destination {
        var bytes: [UInt8] = []
        var isTerminal: Bool
        var isClosed = false

        init(isTerminal: Bool) {
            self.isTerminal = isTerminal
        }

        func writeAll(_ bytes: UnsafeRawBufferPointer) throws(SystemError) {
            if isClosed { throw SystemError(code: EPIPE) }
            self.bytes += bytes
        }
    }

    let answer: Answer
    /// stderr's bytes that are not messages (a child's, in `pwtui run`).
    let errors = Answer(isTerminal: false)
    let streams: StandardStreams
    /// The terminal's line prompt, when the test gave one: its transcript is what was asked.
    let prompt: ScriptedPrompt?
    private let lines = Lines()
    private let inputDescriptor: FileDescriptor

    /// `input`: all of stdin (a pipe's worth at most); `inputIsTerminal`: a person would type
    /// (then the prompt answers). `screen`, `prompt` and `device` (a file standing for the
    /// terminal's own bytes: the clipboard's OSC 52): the terminal, when there is one.
    init(
        input: String = "", inputIsTerminal: Bool = false, answerIsTerminal: Bool = false, messagesAreSeen: Bool = true,
        screen: GridTerminal? = nil, prompt: ScriptedPrompt? = nil, device: String? = nil
    ) throws {
        precondition(input.utf8.count < 60_000, "stdin is a pipe here: give less than its buffer")
        let pipe = try FileDescriptor.pipe()
        try pipe.writing.writeAll(input)
        pipe.writing.close()
        inputDescriptor = pipe.reading
        self.prompt = prompt
        answer = Answer(isTerminal: answerIsTerminal)
        let lines = self.lines
        let messages = HeldMessages { line in lines.all.withLock { $0.append(line) } }
        var terminal: StandardStreams.TerminalAccess?
        if screen != nil || prompt != nil || device != nil {
            let screenBox = UncheckedBox(screen)
            let promptBox = UncheckedBox(prompt)
            terminal = StandardStreams.TerminalAccess(
                openScreen: { _, _, _ in
                    guard let screen = screenBox.value else {
                        throw CommandFailure(.interactionRequired, "no screen in this test")
                    }
                    return screen
                },
                openPrompt: { promptBox.value },
                openDevice: { device.flatMap { try? FileDescriptor.open($0, [.writeOnly, .create, .append]) } })
        }
        streams = StandardStreams(
            answer: answer, errors: errors, messages: messages, messagesAreSeen: messagesAreSeen, input: pipe.reading,
            inputIsTerminal: inputIsTerminal, terminal: terminal)
    }

    deinit {
        inputDescriptor.close()
    }

    /// stdout as text.
    var output: String { String(decoding: answer.bytes, as: UTF8.self) }

    /// Every line said on stderr, in order.
    var messages: [String] { lines.all.withLock { $0 } }

    /// stderr as one text, a line each.
    var errorText: String { messages.joined(separator: "\n") }
}

/// stderr's lines, written from whichever thread says them.
private final class Lines: Sendable {
    let all = Mutex<[String]>([])
}

/// A test's terminal objects reach the context's `@Sendable` openers through this: each test
/// runs on one thread, and the objects are used only there.
private final class UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
