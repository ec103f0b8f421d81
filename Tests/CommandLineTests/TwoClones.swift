import Foundation
import Testing

/// Two machines syncing one vault through git, for the sync tests: machine A's vault pushed to a
/// bare remote in A's sandbox, machine B a clone of it, both set up (`pwtui sync setup`) and with
/// a git identity of their own.
struct TwoClones {
    let a: Sandbox
    let b: Sandbox

    init(_ login: Login, sourceLocation: SourceLocation = #_sourceLocation) throws {
        a = try Sandbox.withVault(login, sourceLocation: sourceLocation)
        b = try Sandbox()
        let bare = a.root + "/remote.git"
        try #require(
            try a.run("/usr/bin/env", ["git", "init", "-q", "--bare", bare]).exitCode == 0,
            sourceLocation: sourceLocation)
        for step in [["init", "-q"], ["remote", "add", "origin", bare]] {
            try #require(try Self.git(a, step).exitCode == 0, sourceLocation: sourceLocation)
        }
        try #require(try a.pwtui(["sync", "setup"], password: .none).exitCode == 0, sourceLocation: sourceLocation)
        for step in [
            ["add", "vault.pwtui", ".gitattributes", ".gitignore"], ["commit", "-q", "-m", "vault"],
            ["push", "-q", "-u", "origin", "HEAD"],
        ] {
            try #require(try Self.git(a, step).exitCode == 0, "\(step)", sourceLocation: sourceLocation)
        }
        try #require(
            try b.run("/usr/bin/env", ["git", "clone", "-q", bare, b.vaultDirectory]).exitCode == 0,
            sourceLocation: sourceLocation)
        try #require(try b.pwtui(["sync", "setup"], password: .none).exitCode == 0, sourceLocation: sourceLocation)
        for sandbox in [a, b] {
            for key in ["user.name", "user.email"] {
                try #require(
                    try Self.git(sandbox, ["config", key, "t@example.com"]).exitCode == 0,
                    sourceLocation: sourceLocation)
            }
        }
    }

    /// git in `sandbox`'s vault directory.
    static func git(_ sandbox: Sandbox, _ arguments: [String]) throws -> RunResult {
        try sandbox.run("/usr/bin/env", ["git", "-C", sandbox.vaultDirectory] + arguments)
    }
}
