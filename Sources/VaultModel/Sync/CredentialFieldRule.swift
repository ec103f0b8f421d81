import ServiceMatching

/// The fields of a credential that a reconciliation merges one by one (see `VaultReconcile`):
/// the one place that lists them. The secret and its history are merged apart (they live in an
/// arena, and a losing password is kept, not dropped); the id, created and modified times are
/// the credential's identity and stamp.
///
/// A field added to `Credential` gets a line in `all`: how to tell two values apart, order them
/// (only to break a tie between changes stamped the same millisecond, so any total order that
/// is the same on every machine will do), and copy one in.
struct CredentialFieldRule: Sendable {
    let name: String
    let equal: @Sendable (Credential, Credential) -> Bool
    /// Negative, zero or positive, like memcmp.
    let compare: @Sendable (Credential, Credential) -> Int
    let take: @Sendable (inout Credential, Credential) -> Void

    static let all: [CredentialFieldRule] = [
        value("title", \.title),
        value("username", \.username),
        value("notes", \.notes),
        value("rank", \.rank),
        CredentialFieldRule(
            name: "services",
            equal: { $0.services.map(\.text) == $1.services.map(\.text) },
            compare: { order($0.services.map(\.text).joined(separator: "\n"), $1.services.map(\.text).joined(separator: "\n")) },
            take: { $0.services = $1.services }),
    ]

    /// A plain value: compared with `==` and `<`, copied as is.
    static func value<Value: Comparable & Sendable>(_ name: String, _ path: WritableKeyPath<Credential, Value> & Sendable) -> CredentialFieldRule {
        CredentialFieldRule(
            name: name,
            equal: { $0[keyPath: path] == $1[keyPath: path] },
            compare: { order($0[keyPath: path], $1[keyPath: path]) },
            take: { $0[keyPath: path] = $1[keyPath: path] })
    }

    private static func order<Value: Comparable>(_ a: Value, _ b: Value) -> Int {
        a < b ? -1 : a == b ? 0 : 1
    }
}
