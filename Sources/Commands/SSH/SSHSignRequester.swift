import Platform
import UnicodeText

/// Who asked the agent for a signature, as the approval shows it and as `session` approvals
/// remember it: the peer's executable (from /proc/PID/exe, which the process cannot change,
/// unlike its argv[0]), its command line, and its chain of parents (`ssh ← git ← bash`).
///
/// The command line is the program's own text (/proc/PID/cmdline): anything it likes, escape
/// sequences included, so it is shown only through `PrintableText`, and cut short.
public struct SSHSignRequester: Sendable, Equatable {
    /// The longest command line shown, in characters.
    static let commandLineLimit = 300

    /// The executable's path; nil when /proc did not show it (the process is gone, or another
    /// user's).
    public let executable: String?
    /// argv joined by spaces, made printable and cut to `commandLineLimit`.
    public let commandLine: String
    /// "ssh ← git ← bash", or "an unknown process".
    public let chain: String
    /// The processes of the chain, asker first: where the user may be (`SSHRequesterTerminal`).
    public let processIDs: [Int32]

    public init(_ chain: ProcessChain) {
        let asker = chain.members.first
        executable = asker?.executable
        commandLine = PrintableText.echoed(
            asker?.commandLine.joined(separator: " ") ?? "", limit: Self.commandLineLimit)
        self.chain = PrintableText.escaped(chain.description)
        processIDs = chain.members.map(\.id)
    }

    /// What a `session` approval is remembered for: the executable, else (unreadable) the
    /// chain's names.
    var program: String { executable ?? "?" + chain }

    /// The asking program's name, for the first line of a question.
    var name: String {
        PrintableText.escaped(executable.map { ProcessChain.fileName($0) } ?? chain)
    }
}
