import Foundation
import PwtuiTestSupport
import ServiceMatching
import TUITestDoubles
import Testing
import TUI
import VaultModel

extension SampleVault {
    /// The picker flow over this vault on `terminal`; `preview` and `answerWithoutUnlocking` as
    /// the identity store and an agent would give them.
    func flow(
        _ terminal: GridTerminal, request: String?, preview: [RankedCredential]? = nil,
        answerWithoutUnlocking: ((UUID) throws -> UUID?)? = nil
    ) -> PickerFlow<Vault, UUID> {
        let path = self.path
        let requests = request.flatMap { try? ServiceIdentifier($0) }.map { [$0] } ?? []
        return PickerFlow(
            terminal: terminal, vaultPath: path, requestLabel: request, preview: preview,
            answerWithoutUnlocking: answerWithoutUnlocking,
            unlock: { try Vault.open(at: path, password: $0) },
            rank: { SampleVault.rank($0, for: requests) },
            credential: { $0.contents.credential(withID: $1) })
    }
}

/// Text snapshots of frames, kept in Tests/TUITests/Snapshots. `PWTUI_RECORD_SNAPSHOTS=1`
/// rewrites them from the current frames (then review the diff).
func assertSnapshot(_ canvas: Canvas?, named name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let frame = try #require(canvas, "no frame", sourceLocation: sourceLocation)
    let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "Snapshots/\(name).txt"
    ).path
    if ProcessInfo.processInfo.environment["PWTUI_RECORD_SNAPSHOTS"] == "1" {
        try (frame.text + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return
    }
    let expected = try #require(
        try? String(contentsOfFile: path, encoding: .utf8),
        "no snapshot \(name).txt: run with PWTUI_RECORD_SNAPSHOTS=1", sourceLocation: sourceLocation)
    #expect(
        frame.text + "\n" == expected, "frame differs from \(name).txt:\n\(frame.text)", sourceLocation: sourceLocation)
}

extension CredentialListScreen {
    /// An event handled at 14×90, where the list shows 10 lines (PgDn's step).
    mutating func handle(_ event: TerminalEvent) -> Transition<Choice> {
        handle(event, context: ScreenContext(size: TerminalSize(rows: 14, columns: 90)))
    }
}

extension GridTerminal {
    func type(_ text: String) { enqueue(typing: text) }
    func press(_ keys: Key...) { for key in keys { enqueue(.key(key)) } }
}
