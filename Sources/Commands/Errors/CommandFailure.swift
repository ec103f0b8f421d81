import ServiceMatching
import VaultModel

/// An error a command raises itself, with the code it exits with.
public struct CommandFailure: Error, CustomStringConvertible, ExitStatusReporting {
    public let code: ExitStatus
    public let message: String
    /// The command has already said it where its caller reads it, so the executable adds nothing on
    /// stderr: docker's helper's "credentials not found" (on stdout, which docker and podman read
    /// as "not logged in"; on a person's terminal it would be noise before every login).
    public let isAnswered: Bool

    public init(_ code: ExitStatus, _ message: String, isAnswered: Bool = false) {
        self.code = code
        self.message = message
        self.isAnswered = isAnswered
    }

    public var description: String { message }
    public var exitStatus: ExitStatus { code }
}
