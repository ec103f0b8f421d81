import FoundationEssentials

/// The process environment as a value: every read of a variable goes through one of these, so a
/// test (or an in-process agent) hands in its own instead of mutating the real one. An empty
/// variable counts as unset everywhere: `XDG_DATA_HOME=` or `NO_COLOR=` from a shell that
/// cleared it must not mean "the current directory" or "no colours".
public struct Environment: Sendable {
    public let variables: [String: String]

    public init(_ variables: [String: String]) {
        self.variables = variables
    }

    /// What this process was started with.
    public static var process: Environment { Environment(ProcessInfo.processInfo.environment) }

    /// The value of `name`, or nil when it is unset or empty.
    public subscript(name: String) -> String? {
        guard let value = variables[name], !value.isEmpty else { return nil }
        return value
    }

    /// Whether `name` is set to something (no-color.org: "present and not an empty string").
    public func isSet(_ name: String) -> Bool { self[name] != nil }

    /// A copy with `name` set (nil: removed), for tests and for children.
    public func setting(_ name: String, to value: String?) -> Environment {
        var variables = variables
        variables[name] = value
        return Environment(variables)
    }
}
