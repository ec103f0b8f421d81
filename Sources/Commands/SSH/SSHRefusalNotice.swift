import Platform
import UnicodeText

/// Says why a signature was refused unasked, where the user may still read it: on the
/// requesting program's own standard error. A program with no terminal in its session (an IDE's
/// background git, a cron job) has nowhere to be asked, and ssh itself then only reports "agent
/// refused operation"; its stderr (a pipe into the IDE's log, a file, cron's mail) is where the
/// reason can be found. The agent keeps no log of its own.
///
/// The stream is opened through `/proc/PID/fd/2` afresh, without blocking (a full pipe loses the
/// notice, not the agent's time), and written only when it is a pipe or a socket: what an IDE,
/// cron or systemd reads. Not a regular file: opened afresh it has an offset of its own, and the
/// program's next words (ssh's "agent refused operation") would be written over the notice. Not
/// a terminal either: one outside the requester's session is not where the user is.
enum SSHRefusalNotice {
    static func tell(_ requester: SSHSignRequester, _ text: String, procRoot: String) {
        guard let pid = requester.processIDs.first,
            let stream = try? FileDescriptor.open(
                "\(procRoot)/\(pid)/fd/2", [.writeOnly, .nonBlocking, .noControllingTerminal])
        else { return }
        defer { stream.close() }
        guard let kind = try? stream.status().kind, kind == .fifo || kind == .socket else { return }
        try? stream.writeAll(PrintableText.message(text))
    }

    /// Nowhere to ask for the approval a key's policy wants.
    static func unapproved(_ question: SSHApprovalQuestion) -> String {
        if case .readKeyringItem = question.action {
            return "pwtui: \"\(PrintableText.escaped(question.keyTitle))\" not given to \(question.requester.name): "
                + "its policy asks you first, and there is no terminal or tmux pane to ask on; run it from a "
                + "terminal, or let the item be read unasked: echo never | pwtui edit ID --field \"keyring confirm\" --text\n"
        }
        return "pwtui: not signed with your SSH key \"\(PrintableText.escaped(question.keyTitle))\" for "
            + "\(question.requester.name): its policy asks you first, and there is no terminal or tmux pane to ask "
            + "on; run it from a terminal, or let the key sign unasked: "
            + "pwtui ssh edit \"\(PrintableText.escaped(question.keyTitle))\" --confirm never\n"
    }

    /// Nowhere to ask for the master password of a locked agent.
    static func locked(_ question: SSHApprovalQuestion) -> String {
        if case .readKeyringItem = question.action {
            return "pwtui: the keyring stays locked for \(question.requester.name): the agent is locked, and there is "
                + "no terminal or tmux pane to ask the master password on; `pwtui unlock` first\n"
        }
        return "pwtui: not signed with your SSH key \"\(PrintableText.escaped(question.keyTitle))\" for "
            + "\(question.requester.name): the agent is locked, and there is no terminal or tmux pane to ask the "
            + "master password on; `pwtui unlock` first (docs/ssh.md)\n"
    }
}
