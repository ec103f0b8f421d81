import Platform
import UnicodeText
import VaultCrypto

/// What the user is asked when a program wants a signature: which program (its executable,
/// command line and parents), which key (title and fingerprint) and, when known, for which
/// destination host. `locked`: the agent is locked, and the question is the master password.
/// The same question, places and answers serve a program's read of a keyring item whose policy
/// asks first (`action`, issue 40).
public struct SSHApprovalQuestion: Sendable, Equatable {
    public enum Action: Sendable, Equatable {
        /// A signature with the SSH key `keyTitle`.
        case sign
        /// A read of the keyring item `keyTitle` (its label), stored by `creator`; or, when
        /// locked, the unlock a Secret Service client asked for.
        case readKeyringItem(creator: String?)
    }

    public let requester: SSHSignRequester
    public let keyTitle: String
    /// `SHA256:…`, as `ssh-keygen -l` prints it.
    public let fingerprint: String
    public let destination: String?
    public let locked: Bool
    /// The master password typed for it before was wrong (asked once more).
    public var wrongPassword = false
    public var action = Action.sign

    /// The question as shown, several lines, every outside text made printable; an approval's
    /// ends with what to allow (`approval`), a master password's with a newline.
    public var text: String {
        var lines: [String]
        switch action {
        case .sign:
            lines = [
                "pwtui: \(requester.name) asks to sign with your SSH key \"\(PrintableText.escaped(keyTitle))\"",
                "  key:      \(fingerprint)",
            ]
        case .readKeyringItem(let creator):
            lines = [
                locked
                    ? "pwtui: \(requester.name) asks the keyring (the Secret Service) to unlock"
                    : "pwtui: \(requester.name) asks to read \"\(PrintableText.escaped(keyTitle))\" from your keyring"
            ]
            if !locked { lines.append("  stored by: \(PrintableText.escaped(creator ?? "(unknown)"))") }
        }
        lines += [
            "  program:  \(PrintableText.escaped(requester.executable ?? "(unknown)"))",
            "  command:  \(requester.commandLine)",
            "  chain:    \(requester.chain)",
        ]
        if let destination { lines.append("  for host: \(PrintableText.escaped(destination))") }
        if locked {
            lines.append(
                action == .sign
                    ? "The agent is locked: the master password unlocks it and allows this signature."
                    : "The agent is locked: the master password unlocks it.")
        }
        if wrongPassword { lines.append("That was not the master password; once more.") }
        return lines.joined(separator: "\n") + "\n" + (locked ? "" : approval)
    }

    /// The question's last words when it asks for a yes (the answer's keys follow them).
    var approval: String {
        action == .sign ? "Allow this signature?" : "Allow this read?"
    }
}

/// How the user answered a question to approve a signature.
public enum SSHApprovalAnswer: Sendable, Equatable {
    case yes
    /// No, any other key, or no answer within the time allowed.
    case no
    /// Nowhere to ask (no terminal of the user's on the requester's chain): refused unasked.
    case nowhereToAsk
}

/// Where and how the user is asked (`SSHRequesterTerminal`; a test's stand-in). Each call may
/// take up to `SSHApprovalQuestion`'s time limit; the agent calls one at a time, never under its
/// turn.
public protocol SSHApprovalPrompter: Sendable {
    func approve(_ question: SSHApprovalQuestion) -> SSHApprovalAnswer
    /// The master password typed for `question`; nil when refused, not answered in time, or there
    /// is nowhere to ask.
    func masterPassword(for question: SSHApprovalQuestion) -> SecureBytes?
}
