/// A process and its ancestors, as /proc shows them: who is asking, when a program connects to
/// the agent or runs pwtui. Credentials bound to programs (`Credential.allowedPrograms`) are
/// given only to a request whose chain names one of them.
///
/// Each member is named by its executable (the target of /proc/PID/exe), which the process
/// cannot change, rather than by its argv[0], which it can. Two exceptions take the name it was
/// started as (argv[0]'s file name) instead: a process running pwtui's own binary, whose names
/// are its entry points (`git-credential-pwtui`, `docker-credential-pwtui`, `pwtui-askpass`),
/// and a process whose exe link cannot be read: one that is not dumpable hides it from other
/// processes of its user, and pwtui hardens every process that holds secrets so. (Root reads
/// every link, so without the first rule the same request would be named differently as root.)
///
/// The walk goes up the parents until pid 1, a process of another user (sudo, sshd, login:
/// beyond them the request is not this user's), or `maximumDepth`.
public struct ProcessChain: Sendable, Equatable, CustomStringConvertible {
    public struct Member: Sendable, Equatable {
        public let id: Int32
        /// The executable's file name, or argv[0]'s when the executable cannot be read.
        public let name: String
        /// The executable's path, when /proc showed it.
        public let executable: String?
        /// argv, as /proc/PID/cmdline holds it (empty when unreadable).
        public let commandLine: [String]

        public init(id: Int32, name: String, executable: String?, commandLine: [String]) {
            self.id = id
            self.name = name
            self.executable = executable
            self.commandLine = commandLine
        }
    }

    public static let maximumDepth = 32

    /// The asking process first, then its parent, and so on.
    public let members: [Member]

    public init(members: [Member]) {
        self.members = members
    }

    /// The chain of `pid` read from `procRoot` (a test's fake tree, or /proc); `ownExecutable`:
    /// the path of pwtui's binary, whose processes are named by argv[0].
    public static func of(
        _ pid: Int32, procRoot: String = "/proc", ownExecutable: String? = CurrentProcess.executablePath
    ) -> ProcessChain {
        var members: [Member] = []
        var current = pid
        var owner: UInt32?
        while current > 1, members.count < maximumDepth, !members.contains(where: { $0.id == current }) {
            let directory = "\(procRoot)/\(current)"
            guard let status = statusFields(of: directory) else { break }
            if let uid = status.uid {
                if let owner, owner != uid { break }
                owner = uid
            }
            let executable = try? FileSystem.linkDestination(directory + "/exe")
            let commandLine = arguments(of: directory)
            let started = commandLine.first.flatMap { $0.isEmpty ? nil : Self.fileName($0) }
            let name =
                (executable == nil || executable == ownExecutable ? started : nil)
                ?? executable.map(Self.fileName) ?? status.command ?? "?"
            members.append(Member(id: current, name: name, executable: executable, commandLine: commandLine))
            guard let parent = status.parent else { break }
            current = parent
        }
        return ProcessChain(members: members)
    }

    /// The names of the chain, asking process first.
    public var names: [String] { members.map(\.name) }

    /// "git-credential-pwtui ← git ← bash": what a refusal names.
    public var description: String {
        members.isEmpty ? "an unknown process" : names.joined(separator: " ← ")
    }

    /// The last path component, without a " (deleted)" that /proc appends to a replaced binary.
    public static func fileName(_ path: String) -> String {
        var path = Substring(path)
        if path.hasSuffix(" (deleted)") { path = path.dropLast(" (deleted)".count) }
        return String(path.split(separator: "/").last ?? path)
    }

    /// /proc/PID/status's Name, PPid and real Uid; nil when the process is gone.
    private static func statusFields(of directory: String) -> (command: String?, parent: Int32?, uid: UInt32?)? {
        guard let bytes = try? RegularFile.readIfPresent(directory + "/status", limit: 64 * 1024, prefix: true)
        else { return nil }
        var command: String?
        var parent: Int32?
        var uid: UInt32?
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2 else { continue }
            let value = parts[1].trimmingPrefix(while: { $0 == " " || $0 == "\t" })
            switch parts[0] {
            case "Name": command = String(value)
            case "PPid": parent = Int32(value)
            case "Uid": uid = value.split(whereSeparator: { $0 == " " || $0 == "\t" }).first.flatMap { UInt32($0) }
            default: break
            }
        }
        return (command, parent, uid)
    }

    private static func arguments(of directory: String) -> [String] {
        guard let bytes = try? RegularFile.readIfPresent(directory + "/cmdline", limit: 64 * 1024, prefix: true)
        else { return [] }
        return bytes.split(separator: 0, omittingEmptySubsequences: false).dropLast(bytes.last == 0 ? 1 : 0).map {
            String(decoding: $0, as: UTF8.self)
        }
    }
}

extension Substring {
    fileprivate func trimmingPrefix(while predicate: (Character) -> Bool) -> Substring {
        var result = self
        while let first = result.first, predicate(first) { result = result.dropFirst() }
        return result
    }
}
