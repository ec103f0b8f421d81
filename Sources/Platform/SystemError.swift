#if canImport(Glibc)
    import Glibc
#endif

/// A failed system call: its errno, as a value. Platform's calls throw this and nothing else, so
/// a caller that knows what it was doing (VaultModel: "replacing the vault") adds the words.
public struct SystemError: Error, Equatable, Sendable, CustomStringConvertible {
    public let code: Int32

    public init(code: Int32) {
        self.code = code
    }

    /// errno as the failed call left it.
    static var current: SystemError { SystemError(code: errno) }

    /// strerror's text, e.g. "No such file or directory".
    public var description: String { Self.message(code) }

    /// The text of an errno value, for messages.
    public static func message(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "error \(code)" }
        return String(cString: text)
    }

    /// Nothing at that path (or a path component is not a directory).
    public var isNotFound: Bool { code == ENOENT || code == ENOTDIR }
    /// Nothing at that path, its directory there (ENOENT alone).
    public var isNoSuchEntry: Bool { code == ENOENT }
    /// Something is at that path already.
    public var isAlreadyExisting: Bool { code == EEXIST }
    /// A descriptor that is not open, or not open for this direction.
    public var isBadDescriptor: Bool { code == EBADF }
    /// The reader went away (a closed pipe or socket).
    public var isBrokenPipe: Bool { code == EPIPE }
    /// The peer closed a socket with bytes of ours still unread in it.
    public var isConnectionReset: Bool { code == ECONNRESET }
    /// A deadline passed before the descriptor was ready (see `FileDescriptor`'s waits).
    public var isTimeout: Bool { code == ETIMEDOUT }

    /// A read back that differs from what was written, or a short write: the device lied.
    public static let inputOutput = SystemError(code: EIO)
    /// Links that do not end (more than the kernel would follow).
    public static let tooManyLinks = SystemError(code: ELOOP)
    /// The deadline passed.
    public static let timedOut = SystemError(code: ETIMEDOUT)
}
