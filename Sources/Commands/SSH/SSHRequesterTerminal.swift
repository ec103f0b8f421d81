import Platform
import TUI
import UnicodeText
import VaultCrypto
import VaultModel

/// Asks on the terminal of the program that wants a signature: where the user is. `ssh` run in a
/// shell, `git push` that runs ssh, `ssh-keygen -Y sign` — each has the user's terminal as its
/// own, or its parent's, while the agent, started in the background, has none. A question in a
/// window of its own (ssh-askpass) could be raised by anyone; one on the terminal that runs the
/// very command is where the user is looking.
///
/// The terminal is found by walking the requester's chain (the peer, then its parents, all of
/// our user: `ProcessChain` stops at another), within the peer's session, to the first process
/// with a controlling terminal (`ProcessTerminal`), opened by its /dev path without becoming ours
/// (O_NOCTTY), and used only when it is a terminal owned by our user. The question is written
/// there; the answer is read with the terminal in non-canonical mode without echo or signals
/// (a Ctrl-C is a "no", not a signal to the foreground program), and the terminal's settings
/// are restored whatever happens, discarding what was typed (it must not reach the shell). No
/// terminal: nobody is asked, and the signature is refused.
///
/// Nor is anybody asked on a terminal the requester's own tree made for itself (a script's
/// `pty.fork()`, `script`, `expect`: it would read the question on the master side and answer
/// it): the session the terminal controls must have been started by a login, a terminal
/// multiplexer or a terminal emulator (`TerminalSession`).
///
/// The program in the foreground may read the terminal too; `ssh` and `ssh-keygen` do not while
/// they wait for the agent's answer, which is when the question is asked.
public struct SSHRequesterTerminal: SSHApprovalPrompter {
    /// How long the user has to answer; then the answer is no.
    public static let answerTime = Duration.seconds(60)

    /// /proc, or a test's fake tree.
    let procRoot: String
    let answerTime: Duration

    public init(procRoot: String = "/proc", answerTime: Duration = Self.answerTime) {
        self.procRoot = procRoot
        self.answerTime = answerTime
    }

    public func approve(_ question: SSHApprovalQuestion) -> SSHApprovalAnswer {
        guard let terminal = open(for: question.requester) else { return .nowhereToAsk }
        defer { terminal.close() }
        return Self.ask(question.text, on: terminal, within: answerTime)
    }

    public func masterPassword(for question: SSHApprovalQuestion) -> SecureBytes? {
        guard let terminal = open(for: question.requester) else { return nil }
        defer { terminal.close() }
        return Self.askPassword(question.text, on: terminal, within: answerTime)
    }

    /// Asks `question` (`SSHApprovalQuestion.text`, which ends with what to allow) on `terminal`
    /// (the requester's, or a tmux popup's): `y` is yes; any other key, or nothing within `time`, no.
    static func ask(_ question: String, on terminal: FileDescriptor, within time: Duration)
        -> SSHApprovalAnswer
    {
        say(question + " [y/N] (\(time.components.seconds) s) ", on: terminal)
        guard let saved = try? terminal.enterRawInputMode() else { return .no }
        defer { terminal.restore(saved) }
        let deadline = Deadline.after(time)
        var byte: UInt8 = 0
        let got = withUnsafeMutableBytes(of: &byte) { (try? terminal.readSome(into: $0, before: deadline)) ?? 0 }
        let yes = got == 1 && (byte == UInt8(ascii: "y") || byte == UInt8(ascii: "Y"))
        say(yes ? "yes\n" : (got == 1 ? "no\n" : "no (no answer)\n"), on: terminal)
        return yes ? .yes : .no
    }

    /// Asks the master password for `question` on `terminal`, without echo, as pwtui's own
    /// prompts read a secret (`TerminalPrompt`); nil when cancelled (Esc, Ctrl-C, Ctrl-D), empty,
    /// longer than any secret pwtui keeps, or not typed within `time`.
    static func askPassword(_ question: String, on terminal: FileDescriptor, within time: Duration)
        -> SecureBytes?
    {
        say(question, on: terminal)
        let prompt = TerminalPrompt(on: terminal, answerTime: time)
        do {
            let typed = try prompt.readSecret(prompt: "Master password (\(time.components.seconds) s): ")
            guard !typed.isEmpty, typed.count <= Limits.secretBytes else { return nil }
            return typed
        } catch {
            return nil
        }
    }

    /// The requester's terminal, open for reading and writing; nil when it has none, or one
    /// that is not a terminal of our user's.
    func open(for requester: SSHSignRequester) -> FileDescriptor? {
        guard let path = terminalPath(for: requester),
            let terminal = try? FileDescriptor.open(path, [.readWrite, .noControllingTerminal])
        else { return nil }
        guard terminal.isTerminal, let status = try? terminal.status(), status.kind == .characterDevice,
            status.ownerID == CurrentProcess.userID
        else {
            terminal.close()
            return nil
        }
        return terminal
    }

    /// The path of the first controlling terminal on the requester's chain, within its session.
    func terminalPath(for requester: SSHSignRequester) -> String? {
        guard let first = requester.processIDs.first,
            let session = ProcessTerminal.of(first, procRoot: procRoot)?.session
        else { return nil }
        for pid in requester.processIDs {
            // Only within the requester's session: a program that left it (setsid, a daemon) has
            // no terminal, even if whoever started it long ago had one.
            guard let state = ProcessTerminal.of(pid, procRoot: procRoot), state.session == session else { return nil }
            if let path = state.terminal {
                // Where a person sits, not a terminal the requester made to answer itself.
                guard TerminalSession.maker(ofSession: session, procRoot: procRoot).mayAsk else { return nil }
                return path
            }
        }
        return nil
    }

    private static func say(_ text: String, on terminal: FileDescriptor) {
        try? terminal.writeAll(PrintableText.message(text))
    }
}
