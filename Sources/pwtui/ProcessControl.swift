import Platform

/// The agent's old names for Platform's socket and signal calls, kept so that Agent/* compiles
/// unchanged until it moves onto `UnixSocket`, `FileDescriptor` and `SignalFlag` directly; then
/// this file goes. Nothing new should use it.
enum ProcessControl {
    /// A listening Unix socket at `path`, or the errno.
    static func listen(at path: String) -> Result<Int32, SocketError> {
        // The agent sets the socket's mode itself (0600) right after: the same here.
        do {
            return .success(try UnixSocket.listen(at: path).rawValue)
        } catch {
            return .failure(SocketError(code: error.code))
        }
    }

    /// A connection to the Unix socket at `path`, or the errno.
    static func connect(to path: String) -> Result<Int32, SocketError> {
        do {
            return .success(try UnixSocket.connect(to: path).rawValue)
        } catch {
            return .failure(SocketError(code: error.code))
        }
    }

    /// The uid of the peer of a connected Unix socket; nil when it cannot be known.
    static func peerUID(_ fd: Int32) -> UInt32? {
        FileDescriptor(rawValue: fd).peerUserID
    }

    static func fixMmapThreshold(bytes: Int32) {
        MemoryTuning.fixMmapThreshold(bytes: bytes)
    }

    static func watchTerminationSignals() {
        SignalFlag.watchTermination()
    }

    static var receivedSignal: Int32 { SignalFlag.received?.rawValue ?? 0 }

    struct SocketError: Error, Equatable {
        let code: Int32
    }
}
