import Platform
import VaultCrypto
import VaultModel

/// `pwtui ssh popup FILE [--password-pipe FIFO]`, hidden: what the agent runs in a tmux popup
/// (`SSHTmuxPopup`). It asks the question in FILE on the popup's terminal, as the agent asks on
/// a requester's (`SSHRequesterTerminal`), and answers by its exit status: 0 yes, 130 no. With
/// `--password-pipe` it asks the master password instead and writes it into the FIFO, which the
/// agent holds open for reading; it never touches the vault itself.
public struct AnswerSSHPopup {
    let questionFile: String
    let passwordPipe: String?

    public init(questionFile: String, passwordPipe: String?) {
        self.questionFile = questionFile
        self.passwordPipe = passwordPipe
    }

    public func run(in context: CommandContext) throws {
        guard let bytes = try? RegularFile.readIfPresent(questionFile, limit: 64 * 1024) else {
            throw CommandFailure(.usage, "no question at \(questionFile)")
        }
        let question = String(decoding: bytes, as: UTF8.self)
        guard let terminal = try? FileDescriptor.open("/dev/tty", [.readWrite]) else {
            throw CommandFailure(.interactionRequired, "no terminal to ask on")
        }
        defer { terminal.close() }
        let time = SSHRequesterTerminal.answerTime
        guard let passwordPipe else {
            guard SSHRequesterTerminal.ask(question, on: terminal, within: time) == .yes else {
                throw CommandFailure(.cancelled, "the signature was refused")
            }
            return
        }
        guard let password = SSHRequesterTerminal.askPassword(question, on: terminal, within: time) else {
            throw CommandFailure(.cancelled, "the signature was refused")
        }
        // Without a reader (the agent gave up) the open fails at once instead of waiting.
        let pipe = try FileDescriptor.open(passwordPipe, [.writeOnly, .nonBlocking])
        defer { pipe.close() }
        guard try pipe.status().kind == .fifo else {
            throw CommandFailure(.usage, "\(passwordPipe) is not the agent's pipe")
        }
        try password.withUnsafeBytes { try pipe.writeAll($0) }
    }
}
