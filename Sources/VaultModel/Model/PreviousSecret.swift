import Platform

/// A secret that was replaced, and when.
public struct PreviousSecret: Sendable {
    public var secret: SecretReference
    public var replaced: Timestamp

    public init(secret: SecretReference, replaced: Timestamp) {
        self.secret = secret
        self.replaced = replaced
    }
}
