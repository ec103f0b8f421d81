import FoundationEssentials
import Platform

/// How the user can run this very pwtui again, for messages that name a next command: `pwtui`
/// when that name on PATH is this program, else its full path. After `make run` nothing is on
/// PATH until `make install`, and "run pwtui add" would be a command not found.
struct Invocation {
    let command: String
    let isOnPath: Bool

    static func current(_ environment: Environment) -> Invocation {
        let own = (try? FileSystem.linkDestination("/proc/self/exe")) ?? CommandLine.arguments[0]
        let resolved = ResolvedPath.of(own)
        let path = environment["PATH"] ?? ""
        for directory in path.split(separator: ":") where !directory.isEmpty {
            let candidate = String(directory) + "/pwtui"
            guard FileSystem.isExecutable(candidate) else { continue }
            // The first pwtui on PATH is the one a shell runs: it must be this one.
            let isThis = ResolvedPath.of(candidate) == resolved
            return Invocation(command: isThis ? "pwtui" : resolved, isOnPath: isThis)
        }
        return Invocation(command: resolved, isOnPath: false)
    }

    /// "pwtui add ...", or the full path and how to put pwtui on PATH.
    func nextStep(_ arguments: String) -> String {
        let line = "\(command) \(arguments)"
        return isOnPath
            ? line
            : line + "\n  (pwtui is not on your PATH yet: `make install` in its source folder puts it in ~/.local/bin)"
    }
}
