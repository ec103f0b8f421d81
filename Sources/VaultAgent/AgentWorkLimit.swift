import Platform
import VaultModel

/// How long one request's work may go on, and whether anybody still waits for it: what long
/// work (an audit) looks at between its steps, so that it ends when its client hangs up, when
/// the agent stops, or at its deadline, instead of running on for nobody (docs/agent.md).
public struct AgentWorkLimit: Sendable {
    public let deadline: ContinuousClock.Instant
    private let abandoned: @Sendable () -> Bool

    /// `abandoned`: whether the client went away or the agent is stopping; asked at each `check`.
    public init(deadline: ContinuousClock.Instant, abandoned: @escaping @Sendable () -> Bool) {
        self.deadline = deadline
        self.abandoned = abandoned
    }

    /// No limit: work done in a command's own process, where the user's Ctrl-C is the limit.
    public static let none = AgentWorkLimit(deadline: .now + .seconds(86_400 * 365), abandoned: { false })

    /// Throws when the work should end now.
    public func check() throws(AgentWorkStopped) {
        if abandoned() { throw .abandoned }
        if ContinuousClock.now >= deadline { throw .pastDeadline }
    }
}

/// Why long work ended before its answer.
public enum AgentWorkStopped: Error, CustomStringConvertible, Equatable {
    /// The client hung up or the agent is stopping: nobody will read the answer.
    case abandoned
    case pastDeadline

    public var description: String {
        switch self {
        case .abandoned: return "the request was abandoned (its client went away, or the agent is stopping)"
        case .pastDeadline:
            return "the agent gave up on the request after \(AgentRequest.longWorkTime.components.seconds) s; "
                + "without the agent (`pwtui agent lock`, then the command again) it runs as long as it takes"
        }
    }
}

extension AgentWorkStopped: ExitStatusReporting {
    /// Long work given up: its answer was not given, the vault is unchanged (74).
    public var exitStatus: ExitStatus { .ioError }
}
