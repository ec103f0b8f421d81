import Platform
import VaultCrypto
import VaultModel

/// `pwtui ssh popup FILE [--answer-socket PATH --agent-process PID]`, hidden: what the agent
/// runs in a tmux popup (`SSHTmuxPopup`). It asks the question in FILE on the popup's terminal,
/// as the agent asks on a requester's (`SSHRequesterTerminal`), and answers by its exit status:
/// 0 yes, 130 no. With `--answer-socket` it asks the master password instead and sends it over a
/// connection to that socket, only when the process listening there is the agent, PID
/// (`SSHPopupAnswer`); it never touches the vault itself.
public struct AnswerSSHPopup {
    let questionFile: String
    /// Where the agent waits for the password, and the agent's pid.
    let answer: (socket: String, agent: Int32)?

    public init(questionFile: String, answer: (socket: String, agent: Int32)?) {
        self.questionFile = questionFile
        self.answer = answer
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
        guard let answer else {
            guard SSHRequesterTerminal.ask(question, on: terminal, within: time) == .yes else {
                throw CommandFailure(.cancelled, "the signature was refused")
            }
            return
        }
        guard let password = SSHRequesterTerminal.askPassword(question, on: terminal, within: time) else {
            throw CommandFailure(.cancelled, "the signature was refused")
        }
        // Without a listener (the agent gave up) the connection fails at once.
        let connection = try UnixSocket.connect(to: answer.socket)
        defer { connection.close() }
        guard connection.peerProcessID == answer.agent, connection.peerUserID == CurrentProcess.userID else {
            throw CommandFailure(
                .usage, "\(answer.socket) is not the agent's (pid \(answer.agent)): the password was not sent there")
        }
        try password.withUnsafeBytes { try connection.sendAll($0, before: .after(.seconds(5))) }
        connection.shutdown(.sending)
        // The agent checks who answered while this process is still there: wait for its word.
        var acknowledgement: UInt8 = 0
        _ = withUnsafeMutableBytes(of: &acknowledgement) {
            try? connection.readSome(into: $0, before: .after(.seconds(5)))
        }
    }
}
