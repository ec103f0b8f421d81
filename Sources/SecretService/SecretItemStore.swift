/// Where the Secret Service's items live, as the service needs them: what pwtui's vault will be
/// behind it (its items of their own kind, issue 40). The service speaks D-Bus and the DH
/// session; a store speaks items, by an id that is one object-path element (`[A-Za-z0-9_]+`: a
/// UUID's hex, say), under `/org/freedesktop/secrets/collection/login/`.
///
/// Every call comes from the one thread that serves the bus.
public protocol SecretItemStore: AnyObject {
    /// The ids of the items whose attributes include every pair of `attributes` (all of them
    /// for none): those the caller may read now (`unlocked`) and those it may not before an
    /// unlock (`locked`; a locked vault lists none it cannot read).
    func search(_ attributes: [String: String]) throws(DBusFailure) -> (unlocked: [String], locked: [String])

    /// Lends item `id`'s secret and its content type (`text/plain`) to `body`; the bytes must
    /// not escape it. `noSuchObject` for an unknown id, `isLocked` when it cannot be read now.
    func withSecret<Result>(
        of id: String, _ body: (UnsafeRawBufferPointer, _ contentType: String) throws(DBusFailure) -> Result
    ) throws(DBusFailure) -> Result
}
