internal import CSodium
#if canImport(Glibc)
import Glibc
#endif

/// System calls that Swift cannot make directly (SO_PEERCRED's struct, sockaddr_un, sigaction),
/// for the agent and the picker: thin wrappers over the shim, so no other file touches C.
public enum ProcessControl {
    /// A listening Unix socket at `path`, or the errno.
    public static func listen(at path: String) -> Result<Int32, SocketError> {
        let fd = pwtui_unix_socket(path, 1)
        return fd >= 0 ? .success(fd) : .failure(SocketError(code: errno))
    }

    /// A connection to the Unix socket at `path`, or the errno.
    public static func connect(to path: String) -> Result<Int32, SocketError> {
        let fd = pwtui_unix_socket(path, 0)
        return fd >= 0 ? .success(fd) : .failure(SocketError(code: errno))
    }

    /// The uid of the peer of a connected Unix socket; nil when it cannot be known.
    public static func peerUID(_ fd: Int32) -> UInt32? {
        let uid = pwtui_peer_uid(fd)
        return uid >= 0 ? UInt32(uid) : nil
    }

    /// Keeps allocations of `bytes` and more in their own mappings for the life of the process
    /// (glibc otherwise raises the threshold after each large free, and a long-lived process that
    /// saves often fragments its heap). For the agent.
    public static func fixMmapThreshold(bytes: Int32) {
        _ = pwtui_fix_mmap_threshold(bytes)
    }

    /// Starts turning SIGTERM, SIGHUP and SIGINT into `receivedSignal` (unblocking them: a blocked
    /// mask is inherited through fork and exec).
    public static func watchTerminationSignals() {
        pwtui_agent_watch_signals()
    }

    public static var receivedSignal: Int32 { pwtui_agent_received_signal() }

    public struct SocketError: Error, Equatable {
        public let code: Int32
    }
}
