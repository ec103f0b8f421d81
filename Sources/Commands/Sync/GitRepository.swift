import FoundationEssentials
import Platform

/// The git repository a vault lives in, driven through the `git` command: what `sync` and
/// `sync setup` need of it. git's own messages (a network error, a refused push) go to stderr as
/// they are; what pwtui reads (a path, a count) is captured.
struct GitRepository {
    /// The top of the work tree.
    let root: String

    /// The repository holding `directory`; a usage error saying how to make one when there is none.
    static func containing(_ directory: String) throws -> GitRepository {
        let found = try run(["-C", directory, "rev-parse", "--show-toplevel"], quiet: true)
        guard found.status == 0, !found.output.isEmpty else {
            throw CommandFailure(
                .usage,
                "\(directory) is not in a git repository; to sync the vault through git: "
                    + "cd \(directory) && git init && git remote add origin URL, then pwtui sync setup")
        }
        return GitRepository(root: found.output)
    }

    /// `git -C root arguments`; stderr shown unless `quiet`.
    @discardableResult
    func git(_ arguments: [String], quiet: Bool = false) throws -> (status: Int32, output: String) {
        try Self.run(["-C", root] + arguments, quiet: quiet)
    }

    /// A value of `git config`, nil when unset.
    func config(_ key: String) throws -> String? {
        let result = try git(["config", "--get", key], quiet: true)
        return result.status == 0 ? result.output : nil
    }

    /// `path` relative to the work tree's top (both resolved, so a link to the folder works).
    func relative(_ path: String) -> String {
        let full = ResolvedPath.of(path)
        let top = ResolvedPath.of(root)
        return full.hasPrefix(top + "/") ? String(full.dropFirst(top.count + 1)) : full
    }

    private static func run(_ arguments: [String], quiet: Bool) throws -> (status: Int32, output: String) {
        let git: ChildProcess
        do {
            git = try ChildProcess.start("git", arguments, output: .pipe, errors: quiet ? .null : .inherited)
        } catch {
            throw CommandFailure(.ioError, "git could not be run (\(error)); is it installed?")
        }
        let bytes = (try? git.output?.readToEnd()) ?? []
        git.output?.close()
        let status: Int32
        switch git.wait() {
        case .exited(let code): status = code
        case .killed(let signal): status = 128 + signal
        }
        return (status, String(decoding: bytes, as: UTF8.self).trimmingSpacesAndNewlines())
    }
}
