import ServiceMatching
import VaultModel

/// An error a command raises itself, with the code it exits with.
public struct CommandFailure: Error, CustomStringConvertible {
    public let code: ExitStatus
    public let message: String

    public init(_ code: ExitStatus, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
