import Foundation
import Testing

extension Sandbox {
    /// Where pwtui looks for the agent in this sandbox (XDG_RUNTIME_DIR/pwtui/agent.sock).
    var agentSocket: String { root + "/xdg/runtime/pwtui/agent.sock" }

    /// Starts `script` under python3 with the agent's socket path (then `arguments`) as its
    /// arguments: a stand-in agent that misbehaves on purpose, listening where the real one would.
    /// Its directory is made 0700, as the agent makes it, since pwtui refuses a socket others can
    /// reach. The caller kills the stand-in (SIGKILL in a `defer`).
    func startStandInAgent(_ script: String, arguments: [String] = []) throws -> Child {
        let directory = (agentSocket as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
        return try start("/usr/bin/python3", ["-c", script, agentSocket] + arguments)
    }
}

extension Child {
    /// Whether the child printed "ready" within `timeout`: the test's Python helpers say so once
    /// they listen or hold their connections, so what the test does next meets them in place.
    func saidReady(within timeout: Duration = .seconds(10)) -> Bool {
        poll(timeout: timeout) { String(decoding: currentStdout(), as: UTF8.self).contains("ready") }
    }
}
