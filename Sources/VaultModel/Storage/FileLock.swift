import Platform

/// An exclusive advisory lock held for the life of the value.
struct FileLock {
    private let fd: FileDescriptor

    /// How long a lock is waited for. A save holds it for milliseconds (a password change for
    /// the KDF's second or so); a holder that keeps it longer is stuck or someone else's.
    static let patience: Duration = .seconds(15)

    /// Takes the exclusive lock on `fd` (of `path`), waiting at most `patience`.
    static func lock(_ fd: FileDescriptor, path: String) throws {
        do {
            try fd.lockExclusively(before: .after(patience))
        } catch {
            if error.isTimeout { throw VaultError.locked(path: path, seconds: Int(patience.components.seconds)) }
            throw VaultError.io(path: path, operation: "locking", errno: error.code)
        }
    }

    init(path: String) throws {
        let fd = try VaultError.during("opening lock file", of: path) {
            try FileDescriptor.open(path, [.readWrite, .create], permissions: 0o600)
        }
        do {
            try Self.lock(fd, path: path)
        } catch {
            fd.close()
            throw error
        }
        self.fd = fd
    }

    func release() {
        fd.close()
    }
}
