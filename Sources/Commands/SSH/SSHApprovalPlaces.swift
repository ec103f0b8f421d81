import Platform
import VaultCrypto

/// Where the agent asks by default: in a tmux popup over the requester's pane when it runs in
/// tmux with a client attached (`SSHTmuxPopup`), else on the requester's terminal
/// (`SSHRequesterTerminal`), else nowhere (refused). Both only for a requester that has a
/// terminal in its session: a popup is never raised for a program detached from the pane.
public struct SSHApprovalPlaces: SSHApprovalPrompter {
    let terminal: SSHRequesterTerminal
    let runtimeDirectory: String
    /// The environment tmux is run with (its PATH, the locale).
    let environment: [String: String]

    public init(
        runtimeDirectory: String, environment: [String: String], procRoot: String = "/proc",
        answerTime: Duration = SSHRequesterTerminal.answerTime
    ) {
        terminal = SSHRequesterTerminal(procRoot: procRoot, answerTime: answerTime)
        self.runtimeDirectory = runtimeDirectory
        self.environment = environment.filter { ["PATH", "LANG", "LC_ALL", "LC_CTYPE"].contains($0.key) }
    }

    public func approve(_ question: SSHApprovalQuestion) -> SSHApprovalAnswer {
        if let popup = popup(for: question), let answer = popup.approve(question) { return answer }
        let answer = terminal.approve(question)
        if answer == .nowhereToAsk {
            SSHRefusalNotice.tell(
                question.requester, SSHRefusalNotice.unapproved(question), procRoot: terminal.procRoot)
        }
        return answer
    }

    public func masterPassword(for question: SSHApprovalQuestion) -> SecureBytes? {
        if let popup = popup(for: question) {
            var shown = false
            let typed = popup.masterPassword(for: question, shown: &shown)
            if shown { return typed }
        }
        guard terminal.terminalPath(for: question.requester) != nil else {
            SSHRefusalNotice.tell(question.requester, SSHRefusalNotice.locked(question), procRoot: terminal.procRoot)
            return nil
        }
        return terminal.masterPassword(for: question)
    }

    private func popup(for question: SSHApprovalQuestion) -> SSHTmuxPopup? {
        SSHTmuxPopup.locate(
            question.requester, terminal: terminal.terminalPath(for: question.requester), procRoot: terminal.procRoot,
            runtimeDirectory: runtimeDirectory, environment: environment, answerTime: terminal.answerTime)
    }
}
