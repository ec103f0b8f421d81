import Foundation
import Testing
import TUI
import VaultCrypto
import VaultModel

/// A vault on disk with a few credentials, opened with the real Argon2id (interactive cost).
struct SampleVault {
    static let password = "picker master"
    static let secrets = ["hunter2-github", "s3cret-api", "gitlab-pw", "org-pw", "日本-pw"]
    let path: String
    let vault: Vault

    init() throws {
        let directory = NSTemporaryDirectory() + "pwtui-tui-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        path = directory + "/v.pwtui"
        let clock = Clock { Timestamp(millisecondsSince1970: 1_700_000_000_000) }
        vault = try Vault.create(at: path, password: try SecureBytes(copying: Array(Self.password.utf8)),
                                 parameters: .interactive, environment: VaultEnvironment(clock: clock))
        let entries: [(String, String, String)] = [
            ("https://github.com/login", "alice", "GitHub"), ("api.github.com", "bot", "GitHub API"),
            ("gitlab.com", "alice", "GitLab"), ("example.org", "bob", "Example"), ("nihon.example.jp", "日本語ユーザー", "日本語のタイトル"),
        ]
        for (index, entry) in entries.enumerated() {
            try vault.add(services: [try ServiceIdentifier(entry.0)], username: entry.1,
                          secret: try SecureBytes(copying: Array(Self.secrets[index].utf8)), title: entry.2)
        }
        try vault.save()
    }

    func ranked(for request: String?) throws -> [RankedCredential] {
        let requests = try request.map { [try ServiceIdentifier($0)] } ?? []
        return CredentialRanking.rank(vault.contents.credentials, for: requests, context: RankingContext(suffixes: LibPSL() ?? NoPublicSuffixList()))
    }

    /// The picker flow over this vault on `terminal`; `preview` and `answerWithoutUnlocking` as
    /// the identity store and an agent would give them.
    func flow(_ terminal: GridTerminal, request: String?, preview: [RankedCredential]? = nil,
              answerWithoutUnlocking: ((UUID) throws -> UUID?)? = nil) -> PickerFlow<Vault, UUID> {
        let path = self.path
        let requests = request.flatMap { try? ServiceIdentifier($0) }.map { [$0] } ?? []
        return PickerFlow(terminal: terminal, vaultPath: path, requestLabel: request, preview: preview,
                          answerWithoutUnlocking: answerWithoutUnlocking,
                          unlock: { try Vault.open(at: path, password: $0) },
                          rank: { CredentialRanking.rank($0.contents.credentials, for: requests, context: RankingContext(suffixes: LibPSL() ?? NoPublicSuffixList())) },
                          credential: { $0.contents.credential(withID: $1) })
    }
}

/// Text snapshots of frames, kept in Tests/TUITests/Snapshots. `PWTUI_RECORD_SNAPSHOTS=1`
/// rewrites them from the current frames (then review the diff).
func assertSnapshot(_ canvas: Canvas?, named name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let frame = try #require(canvas, "no frame", sourceLocation: sourceLocation)
    let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Snapshots/\(name).txt").path
    if ProcessInfo.processInfo.environment["PWTUI_RECORD_SNAPSHOTS"] == "1" {
        try (frame.text + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return
    }
    let expected = try #require(try? String(contentsOfFile: path, encoding: .utf8),
                                "no snapshot \(name).txt: run with PWTUI_RECORD_SNAPSHOTS=1", sourceLocation: sourceLocation)
    #expect(frame.text + "\n" == expected, "frame differs from \(name).txt:\n\(frame.text)", sourceLocation: sourceLocation)
}

extension CredentialListScreen {
    /// An event handled at 14×90, where the list shows 10 lines (PgDn's step).
    mutating func handle(_ event: TerminalEvent) -> Transition<UUID> {
        handle(event, context: ScreenContext(size: TerminalSize(rows: 14, columns: 90)))
    }
}

extension GridTerminal {
    func type(_ text: String) { enqueue(typing: text) }
    func press(_ keys: Key...) { for key in keys { enqueue(.key(key)) } }
}
