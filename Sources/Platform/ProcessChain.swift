/// A process and its ancestors, as /proc shows them: who is asking, when a program connects to
/// the agent or runs pwtui. Credentials bound to programs (`Credential.allowedPrograms`) are
/// given only to a request whose chain names one of them.
///
/// Each member is named by its executable (the target of /proc/PID/exe), which the process
/// cannot change, never by its argv[0], which it can (`exec -a git pwtui get X`). pwtui's own
/// entry points (`entryPoints`: `git-credential-pwtui`, `docker-credential-pwtui`,
/// `pwtui-askpass`) are one binary started under several names, so a process running pwtui's
/// binary is named by argv[0] when that is one of them, and `pwtui` otherwise.
///
/// A process whose exe link cannot be read (one that is not dumpable hides it from other
/// processes of its user: pwtui hardens itself so, setuid programs are so, and so is any program
/// that asks the kernel) proves nothing about what it runs. It is named by an entry point when
/// argv[0] is one — any process of the user may run that entry point itself, so the name grants
/// nothing it could not have — and otherwise it is `unverified`: shown with its argv[0] and a
/// `?`, and never matched by a binding.
///
/// The walk goes up the parents until pid 1, a process of another user (sudo, sshd, login:
/// beyond them the request is not this user's), or `maximumDepth`.
public struct ProcessChain: Sendable, Equatable, CustomStringConvertible {
    public struct Member: Sendable, Equatable {
        public let id: Int32
        /// The executable's file name; pwtui's entry point; or, for an unverified member, argv[0]'s
        /// file name, shown but never matched.
        public let name: String
        /// Whether `name` is known from the executable (false: only argv[0] says so).
        public let isVerified: Bool
        /// The executable's path, when /proc showed it.
        public let executable: String?
        /// argv, as /proc/PID/cmdline holds it (empty when unreadable).
        public let commandLine: [String]

        public init(id: Int32, name: String, executable: String?, commandLine: [String], isVerified: Bool = true) {
            self.id = id
            self.name = name
            self.isVerified = isVerified
            self.executable = executable
            self.commandLine = commandLine
        }
    }

    public static let maximumDepth = 32

    /// The names pwtui's binary is installed and started under (`CommandRunner` reads argv[0]).
    public static let entryPoints: Set<String> = [
        "pwtui", "git-credential-pwtui", "docker-credential-pwtui", "pwtui-askpass",
    ]

    /// The asking process first, then its parent, and so on.
    public let members: [Member]

    public init(members: [Member]) {
        self.members = members
    }

    /// The chain of `pid` read from `procRoot` (a test's fake tree, or /proc), `depth` processes
    /// at most (1: the process alone, when only its name matters); `ownExecutable`: the path of
    /// pwtui's binary, whose processes are named by argv[0].
    public static func of(
        _ pid: Int32, depth: Int = maximumDepth, procRoot: String = "/proc",
        ownExecutable: String? = CurrentProcess.executablePath
    ) -> ProcessChain {
        var members: [Member] = []
        var current = pid
        var owner: UInt32?
        let depth = min(depth, maximumDepth)
        while current > 1, members.count < depth, !members.contains(where: { $0.id == current }) {
            let directory = "\(procRoot)/\(current)"
            guard let status = statusFields(of: directory) else { break }
            if let uid = status.uid {
                if let owner, owner != uid { break }
                owner = uid
            }
            let executable = try? FileSystem.linkDestination(directory + "/exe")
            let commandLine = arguments(of: directory)
            let started = commandLine.first.flatMap { $0.isEmpty ? nil : Self.fileName($0) }
            let entryPoint = started.flatMap { entryPoints.contains($0) ? $0 : nil }
            let member: Member
            if let executable, executable != ownExecutable {
                member = Member(
                    id: current, name: Self.fileName(executable), executable: executable, commandLine: commandLine)
            } else if let executable {
                member = Member(
                    id: current, name: entryPoint ?? "pwtui", executable: executable, commandLine: commandLine)
            } else if let entryPoint {
                member = Member(id: current, name: entryPoint, executable: nil, commandLine: commandLine)
            } else {
                member = Member(
                    id: current, name: started ?? status.command ?? "?", executable: nil, commandLine: commandLine,
                    isVerified: false)
            }
            members.append(member)
            guard let parent = status.parent else { break }
            current = parent
        }
        return ProcessChain(members: members)
    }

    /// The names a binding may match, asking process first: the unverified members' are left out.
    public var names: [String] { members.filter(\.isVerified).map(\.name) }

    /// "git-credential-pwtui ← git ← bash": what a refusal names; an unverified member's name
    /// has a `?` ("git? ← bash": argv[0] says git, the executable could not be read).
    public var description: String {
        members.isEmpty
            ? "an unknown process" : members.map { $0.isVerified ? $0.name : $0.name + "?" }.joined(separator: " ← ")
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
