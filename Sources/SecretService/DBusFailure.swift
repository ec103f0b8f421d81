import VaultModel

/// A method call refused, as the D-Bus error its caller gets: the error's name says what kind
/// (what libsecret and secretstorage switch on), the message says what to do.
public enum DBusFailure: Error, Equatable, Sendable, CustomStringConvertible {
    /// The arguments do not have the method's signature, or a value is out of range.
    case invalidArguments(String)
    /// An algorithm or a feature this service does not offer.
    case notSupported(String)
    /// The session named is not open, or not the caller's.
    case noSession(String)
    /// No object at the path named.
    case noSuchObject(String)
    /// The items are locked (the vault is).
    case isLocked(String)
    /// A bound was reached (too many open sessions).
    case limitsExceeded(String)
    /// Anything else: the message says what.
    case failed(String)
    /// The read asks the user first, and was asked not to (`SecretItemStore.withSecret`'s
    /// `asking`): the server asks again off the bus's thread. Sent to a caller only by a store
    /// that says it when asked to ask, as `Failed`.
    case mustAsk(String)

    /// The D-Bus error name.
    public var name: String {
        switch self {
        case .invalidArguments: "org.freedesktop.DBus.Error.InvalidArgs"
        case .notSupported: "org.freedesktop.DBus.Error.NotSupported"
        case .noSession: "org.freedesktop.Secret.Error.NoSession"
        case .noSuchObject: "org.freedesktop.Secret.Error.NoSuchObject"
        case .isLocked: "org.freedesktop.Secret.Error.IsLocked"
        case .limitsExceeded: "org.freedesktop.DBus.Error.LimitsExceeded"
        case .failed, .mustAsk: "org.freedesktop.DBus.Error.Failed"
        }
    }

    public var description: String {
        switch self {
        case .invalidArguments(let message), .notSupported(let message), .noSession(let message),
            .noSuchObject(let message), .isLocked(let message), .limitsExceeded(let message), .failed(let message),
            .mustAsk(let message):
            message
        }
    }
}

extension DBusFailure: ExitStatusReporting {
    /// A refusal goes back to the D-Bus caller as its error; should one end a command, as what
    /// it is: a request that cannot be served as asked (64), or, locked, one that needs the person.
    public var exitStatus: ExitStatus {
        switch self {
        case .invalidArguments, .notSupported, .noSession, .noSuchObject: .usage
        case .isLocked, .limitsExceeded, .mustAsk: .interactionRequired
        case .failed: .internalError
        }
    }
}
