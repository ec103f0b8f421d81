import Platform
import UnicodeText
import VaultCrypto
import VaultModel

/// Asks in a tmux popup over the requester's pane: inside tmux, the pane that ran `ssh` shows the
/// question in a box of its own, drawn over whatever is on screen and gone when answered, on the
/// client the user looks at.
///
/// How it is found and checked: the requester's environment (/proc/PID/environ, readable for
/// our own user only) holds `TMUX` (the server's socket, then its pid and session) and
/// `TMUX_PANE`. The socket must be a socket owned by our user, the pane's terminal
/// (`#{pane_tty}`) must be the requester's own (an inherited `TMUX` in a program that left the
/// pane is not used), and a client must be attached to its session: the one most recently
/// active shows the popup. Anything else: no popup, and the caller asks on the terminal.
///
/// How it is asked (tmux 3.3a, Debian's): `tmux -S SOCKET display-popup -E -t PANE -c CLIENT
/// CMD` waits until CMD has exited and exits with CMD's status; it fails with 1 at once when
/// nobody is attached ("no current client") or the popup is larger than the client ("width too
/// large"), so the popup is sized to the question within the client's size. CMD is pwtui's own binary, `pwtui ssh popup FILE`, a hidden
/// command: FILE (0600, in the agent's 0700 runtime directory) holds the question, and the
/// command asks it on the popup's terminal as on the requester's (`SSHRequesterTerminal`) and
/// exits 0 for yes, 130 for no. A master password comes back over a connection to a socket the
/// agent listens on for that question alone, checked at both ends (`SSHPopupAnswer`): never
/// through anything another process of the user could open and read. Any other status (no
/// client after all, pwtui's binary gone) means the popup did not ask: the caller asks on the
/// terminal. A popup still open after the time allowed is closed (`display-popup -C`).
struct SSHTmuxPopup {
    /// The exit status of `pwtui ssh popup` for a no (`ExitStatus.cancelled`).
    static let refused: Int32 = 130

    let socket: String
    /// The tmux server's pid (`TMUX`'s second field): the popup's command descends from it.
    let server: Int32?
    let pane: String
    let client: String
    /// The client's size: a popup larger than it is refused by tmux ("width too large").
    let clientSize: (columns: Int, rows: Int)
    let runtimeDirectory: String
    let environment: [String: String]
    let answerTime: Duration

    /// The popup for `requester`, whose terminal is `terminal`; nil when there is none to use.
    static func locate(
        _ requester: SSHSignRequester, terminal: String?, procRoot: String, runtimeDirectory: String,
        environment: [String: String], answerTime: Duration
    ) -> SSHTmuxPopup? {
        // The first environment of the chain that can be read: a process that made itself not
        // dumpable (a hardened program) hides its own, not its parent's in the same pane.
        guard let terminal,
            let variables = requester.processIDs.lazy.compactMap({
                try? RegularFile.readIfPresent("\(procRoot)/\($0)/environ", limit: 256 * 1024, prefix: true)
            }).first(where: { !$0.isEmpty })
        else { return nil }
        var tmux: String?
        var pane: String?
        for entry in variables.split(separator: 0) {
            let text = String(decoding: entry, as: UTF8.self)
            if text.hasPrefix("TMUX=") { tmux = String(text.dropFirst(5)) }
            if text.hasPrefix("TMUX_PANE=") { pane = String(text.dropFirst(10)) }
        }
        let fields = tmux?.split(separator: ",", omittingEmptySubsequences: false) ?? []
        let server = fields.count > 1 ? Int32(fields[1]) : nil
        guard let socket = fields.first.map(String.init), let pane, pane.hasPrefix("%"),
            let status = try? FileSystem.status(socket), status.kind == .socket,
            status.ownerID == CurrentProcess.userID
        else { return nil }
        let probe = SSHTmuxPopup(
            socket: socket, server: server, pane: pane, client: "", clientSize: (0, 0),
            runtimeDirectory: runtimeDirectory,
            environment: environment, answerTime: answerTime)
        guard let paneTerminal = probe.tmux(["display-message", "-p", "-t", pane, "#{pane_tty}"]),
            paneTerminal.trimmingSuffix("\n") == terminal,
            let clients = probe.tmux([
                "list-clients", "-t", pane, "-F", "#{client_activity} #{client_width} #{client_height} #{client_name}",
            ])
        else { return nil }
        // The client most recently used is the one the user is looking at.
        let latest = clients.split(separator: "\n").compactMap { line -> (Int, Int, Int, String)? in
            let parts = line.split(separator: " ", maxSplits: 3)
            guard parts.count == 4, let activity = Int(parts[0]), let columns = Int(parts[1]), let rows = Int(parts[2])
            else { return nil }
            return (activity, columns, rows, String(parts[3]))
        }.max { $0.0 < $1.0 }
        guard let latest, latest.1 >= 20, latest.2 >= 5 else { return nil }
        return SSHTmuxPopup(
            socket: socket, server: server, pane: pane, client: latest.3, clientSize: (latest.1, latest.2),
            runtimeDirectory: runtimeDirectory, environment: environment, answerTime: answerTime)
    }

    /// The answer given in the popup; nil when the popup did not ask.
    func approve(_ question: SSHApprovalQuestion) -> SSHApprovalAnswer? {
        switch show(question, answer: nil) {
        case 0: .yes
        case Self.refused: .no
        default: nil
        }
    }

    /// The master password typed in the popup; `shown` says whether the popup asked at all.
    func masterPassword(for question: SSHApprovalQuestion, shown: inout Bool) -> SecureBytes? {
        guard let server, let name = Self.uniqueName(in: runtimeDirectory),
            let answer = SSHPopupAnswer(path: name + ".sock", server: server)
        else { return nil }
        let status = show(question, answer: answer)
        shown = status == 0 || status == Self.refused
        guard status == 0 else { return nil }
        // A connection that came as the popup ended is still waiting to be taken.
        answer.take(waitingAtMost: .zero)
        return answer.takePassword()
    }

    /// Runs the popup for `question` and returns its exit status (-1 when tmux could not run);
    /// with `answer`, the popup asks the master password and gives it there, taken meanwhile.
    private func show(_ question: SSHApprovalQuestion, answer: SSHPopupAnswer?) -> Int32 {
        guard let name = Self.uniqueName(in: runtimeDirectory) else { return -1 }
        let file = name + ".question"
        do {
            let out = try FileDescriptor.open(file, [.writeOnly, .create, .exclusive], permissions: 0o600)
            defer { out.close() }
            try out.writeAll(question.text)
        } catch {
            return -1
        }
        defer { try? FileSystem.removeIfPresent(file) }
        let command =
            ([CurrentProcess.executablePath, "ssh", "popup", file]
            + (answer.map { ["--answer-socket", $0.path, "--agent-process", "\(CurrentProcess.id)"] } ?? []))
            .map(ShellWord.quoted).joined(separator: " ")
        // As wide as the longest line and as high as the lines wrapped to that width, plus the
        // answer's line and the border, within the client.
        let textLines = question.text.split(separator: "\n").map(\.count)
        let width = min(clientSize.columns, (textLines.max() ?? 60) + 4)
        let inside = max(1, width - 2)
        let height = min(clientSize.rows, textLines.reduce(0) { $0 + max(1, ($1 + inside - 1) / inside) } + 3)
        guard
            let child = try? ChildProcess.start(
                "tmux",
                [
                    "-S", socket, "display-popup", "-E", "-t", pane, "-c", client, "-w", "\(width)", "-h", "\(height)",
                    "-T", " pwtui ", command,
                ], environment: environment)
        else { return -1 }
        let deadline = Deadline.after(answerTime + .seconds(5))
        while !deadline.hasPassed {
            if let ending = child.poll() {
                if case .exited(let status) = ending { return status }
                return -1
            }
            if let answer {
                answer.take(waitingAtMost: .milliseconds(50))
            } else {
                CurrentProcess.sleep(for: .milliseconds(50))
            }
        }
        // Still open past its time: closed, and taken as a no.
        _ = tmux(["display-popup", "-C", "-c", client])
        child.kill()
        _ = child.wait()
        return Self.refused
    }

    /// A tmux command's output; nil when it failed or took over 5 s.
    private func tmux(_ arguments: [String]) -> String? {
        guard
            let child = try? ChildProcess.start(
                "tmux", ["-S", socket] + arguments, environment: environment, output: .pipe),
            let output = child.output
        else { return nil }
        defer { output.close() }
        let deadline = Deadline.after(.seconds(5))
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while bytes.count < 64 * 1024 {
            guard let got = try? chunk.withUnsafeMutableBytes({ try output.readSome(into: $0, before: deadline) })
            else {
                child.kill()
                _ = child.wait()
                return nil
            }
            if got == 0 { break }
            bytes += chunk[..<got]
        }
        guard child.wait().succeeded else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A new path prefix in `directory`, random, so that two questions never share a file.
    private static func uniqueName(in directory: String) -> String? {
        guard let random = try? RandomBytes.make(12) else { return nil }
        return directory + "/ssh-question-" + Hex.string(random)
    }
}

extension String {
    fileprivate func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
