/// A service identifier that does not parse, or a URL that carries a user name or password. The
/// message quotes the problem and never the userinfo; the command line reports it as a usage
/// error (exit 64), like any other request that does not make sense.
public struct InvalidServiceIdentifier: Error, Equatable, Sendable, CustomStringConvertible {
    public let message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
