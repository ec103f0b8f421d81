import Foundation
import Testing

// What the tmux tests do again and again on top of TmuxSession (Support.swift): wait for the
// shell, run a command line in it, insist on a screen.
extension TmuxSession {
    /// A session whose shell has drawn its prompt: keys sent before bash reads its terminal can
    /// be lost, and a test would then wait for a screen that never comes.
    static func shellReady(sandbox: Sandbox, sourceLocation: SourceLocation = #_sourceLocation) throws -> TmuxSession {
        let tmux = try TmuxSession(sandbox: sandbox, sourceLocation: sourceLocation)
        let prompt = try tmux.waitForPane { !$0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }
        try #require(
            prompt != nil, "the shell in tmux did not start: \(tmux.captures.last ?? "")",
            sourceLocation: sourceLocation)
        return tmux
    }

    /// Types `commandLine` into the shell and presses Enter.
    func enter(_ commandLine: String) throws {
        try type(commandLine)
        try press("Enter")
    }

    /// The first screen on which `condition` holds. Without one the test stops here, saying `why`
    /// and showing the last screen seen: later steps would only fail less clearly.
    @discardableResult
    func requirePane(
        _ why: String = "", timeout: Duration = .seconds(10), sourceLocation: SourceLocation = #_sourceLocation,
        _ condition: (String) -> Bool
    ) throws -> String {
        let pane = try waitForPane(timeout: timeout, condition)
        return try #require(
            pane, "\(why.isEmpty ? "" : why + ": ")\(captures.last ?? "")", sourceLocation: sourceLocation)
    }
}

/// The file a command line typed into tmux writes (`…; echo "RC=$?" > FILE`), once its last line
/// (`RC=...`) is there: a command's own output may already end in a newline before the exit
/// status is appended. Nil when it does not come within `timeout`.
func commandResult(_ file: String, timeout: Duration = .seconds(15)) -> String? {
    var text: String?
    poll(timeout: timeout) {
        text = readBytes(file).map { String(decoding: $0, as: UTF8.self) }
        return text.map { $0.hasSuffix("\n") && $0.split(separator: "\n").last?.hasPrefix("RC=") == true } ?? false
    }
    return text
}
