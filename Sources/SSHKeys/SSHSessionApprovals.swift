import FoundationEssentials

/// The approvals a key of policy `session` remembers: one per requesting program (its
/// executable's path), destination host and key, until the agent locks. 1Password's agent works
/// so, and it is what makes approval bearable: `git pull` in a loop is asked once, while another
/// program (a script that found `SSH_AUTH_SOCK`) or the same key for another host is asked
/// again. A "no" is never remembered: the next request asks again.
///
/// `epoch` counts the locks. A question is asked without the agent's turn held, so the agent can
/// lock (and even unlock again) while the user reads it; an answer is acted on only when the
/// epoch it was asked in is still the current one.
public struct SSHSessionApprovals {
    public struct Grant: Hashable, Sendable {
        public let program: String
        public let destination: String?
        public let key: UUID

        public init(program: String, destination: String?, key: UUID) {
            self.program = program
            self.destination = destination
            self.key = key
        }
    }

    public private(set) var epoch = 0
    private var granted: Set<Grant> = []

    public init() {}

    public func contains(_ grant: Grant) -> Bool { granted.contains(grant) }

    public mutating func remember(_ grant: Grant) { granted.insert(grant) }

    /// The agent locked: every approval is gone, and answers to questions asked before are void.
    public mutating func forget() {
        granted.removeAll()
        epoch += 1
    }
}
