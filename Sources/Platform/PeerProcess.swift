/// The process at the other end of a connection, as it was when the connection was accepted:
/// its pid (SO_PEERCRED), when it started, its command name and its executable. The agent
/// captures it at once on accepting, and asks `isUnchanged` when it answers: a requester that
/// connected, forked and exec'd another program (`git`, `ssh-keygen`) in the connected process,
/// to send the request from the child, is no longer the process that connected; nor is a pid
/// that died and was given to another process.
///
/// - `started`: field 22 of /proc/PID/stat, in clock ticks since boot: a pid reused by a new
///   process starts later. It survives exec(2).
/// - `executable`: the target of /proc/PID/exe, which exec(2) changes; nil when it cannot be read
///   (a process that is not dumpable hides it: pwtui's own, a setuid program's).
/// - `command`: field 2 of /proc/PID/stat, which exec(2) sets to the new program's file name:
///   an exec between two processes that both hide their executable still shows there.
///
/// What this cannot see: an exec that happens between the client's connect and the agent's
/// accept (the capture is the first thing the accept loop does, microseconds later), and what a
/// process with the same executable does with its own memory.
public struct PeerProcess: Sendable, Equatable, CustomStringConvertible {
    public let id: Int32
    public let started: UInt64
    public let command: String
    public let executable: String?

    public init(id: Int32, started: UInt64, command: String, executable: String?) {
        self.id = id
        self.started = started
        self.command = command
        self.executable = executable
    }

    /// The peer of a connected Unix socket as it is now; nil when the kernel does not say who it
    /// is, or the process is already gone.
    public static func connected(to descriptor: FileDescriptor, procRoot: String = "/proc") -> PeerProcess? {
        descriptor.peerProcessID.flatMap { capture($0, procRoot: procRoot) }
    }

    /// Process `pid` as /proc shows it now; nil when it is gone (or /proc says nothing sensible).
    public static func capture(_ pid: Int32, procRoot: String = "/proc") -> PeerProcess? {
        guard pid > 0,
            let bytes = try? RegularFile.readIfPresent("\(procRoot)/\(pid)/stat", limit: 4096, prefix: true),
            let open = bytes.firstIndex(of: UInt8(ascii: "(")),
            let close = bytes.lastIndex(of: UInt8(ascii: ")")), open < close
        else { return nil }
        // The command (field 2) is in parentheses and may itself hold spaces and ')': the fields
        // that follow start after the last ')', with the state (field 3) first.
        let fields = bytes[(close + 1)...].split(separator: UInt8(ascii: " "))
        guard fields.count > 19, let started = UInt64(String(decoding: fields[19], as: UTF8.self)) else {
            return nil
        }
        let executable = try? FileSystem.linkDestination("\(procRoot)/\(pid)/exe")
        return PeerProcess(
            id: pid, started: started, command: String(decoding: bytes[(open + 1) ..< close], as: UTF8.self),
            executable: executable)
    }

    /// Whether process `id` is still the one captured: the same start (not a reused pid), the
    /// same executable and command name (no exec since). False when it has gone.
    public func isUnchanged(procRoot: String = "/proc") -> Bool {
        Self.capture(id, procRoot: procRoot) == self
    }

    /// "pid 4242 (python3)": what a refusal names.
    public var description: String { "pid \(id) (\(command))" }
}
