import Platform

/// An authenticator key a credential had before, and when it was replaced: kept like a previous
/// password, so a key replaced by mistake, or one that lost a merge to a key set elsewhere, can
/// still be read back (a site's enrolment cannot be repeated without the account). Its bytes are
/// in the vault's arena, like the current key's.
public struct PreviousOneTimeKey: Sendable {
    public var key: OneTimeKey
    public var replaced: Timestamp

    public init(key: OneTimeKey, replaced: Timestamp) {
        self.key = key
        self.replaced = replaced
    }
}
