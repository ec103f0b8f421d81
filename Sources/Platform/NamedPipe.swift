#if canImport(Glibc)
    import Glibc
#endif

/// A FIFO in the file system: how a process that pwtui cannot hand a descriptor to (one that
/// tmux starts in a popup) gives an answer back. Made in a 0700 directory of pwtui's own, so
/// only this user can open it.
public enum NamedPipe {
    /// mkfifo(3) with `permissions`; fails when something is at `path` already.
    public static func make(_ path: String, permissions: UInt32 = 0o600) throws(SystemError) {
        guard mkfifo(path, mode_t(permissions)) == 0 else { throw .current }
    }
}
