// A lock another user holds and never lets go: every wait for it has a deadline. `export
// --output` into a shared directory whose lock (an flock on the directory, AtomicFile's) a
// process of another uid holds used to hang (issue 36, item 8).

import Foundation
import Platform
import Testing

@Suite("a lock another user holds")
struct ForeignLockTests {
    @Test(
        "export --output into a directory another uid has locked: refused after the lock's patience, not a hang",
        .enabled(if: SSHAgentProgramTests.isRoot, "needs root: setpriv to another uid"))
    func exportIntoLockedDirectory() throws {
        let sandbox = try Sandbox.withVault()
        let shared = sandbox.root + "/shared"
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: true)
        _ = chmod(sandbox.root, 0o755)
        _ = chmod(shared, 0o777)
        let holder = try sandbox.start(
            "/usr/bin/setpriv",
            ["--reuid=nobody", "--regid=nogroup", "--clear-groups", "/usr/bin/flock", shared, "/bin/sleep", "120"])
        defer {
            holder.signal(SIGKILL)
            _ = holder.wait(timeout: .seconds(5))
        }
        // Held: another flock on it cannot be taken.
        #expect(
            poll(timeout: .seconds(10)) {
                (try? sandbox.run("/usr/bin/flock", ["-n", shared, "true"]))?.exitCode == 1
            }, "the other user holds the lock")
        let export = try sandbox.pwtui(
            ["export", "--format", "csv", "--output", shared + "/passwords.csv"], timeout: .seconds(45))
        #expect(!export.timedOut, "\(export)")
        #expect(export.exitCode != 0 && export.exitCode != nil, "\(export)")
        #expect(export.err.contains("lock"), "\(export)")
        #expect(!FileManager.default.fileExists(atPath: shared + "/passwords.csv"))
    }
}
