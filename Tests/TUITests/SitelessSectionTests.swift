import Foundation
import ServiceMatching
import TUITestDoubles
import Testing
import TUI
import VaultModel

/// Items without a site (format 1.3) in the picker: a last section of their own, under the other
/// credentials, never among the matches; reached by the typed filter by title.
@Suite struct SitelessSectionTests {
    static let request = "https://github.com/login"

    func ranked(requested: Bool) throws -> [RankedCredential] {
        let identities = [
            IdentityStore.Identity(id: UUID(), title: "Home Wi-Fi", username: "", services: [], rank: 0),
            IdentityStore.Identity(
                id: UUID(), title: "GitHub", username: "alice", services: ["https://github.com/login"], rank: 0),
            IdentityStore.Identity(id: UUID(), title: "Shop", username: "bob", services: ["shop.example"], rank: 0),
        ]
        let credentials = try identities.map { try $0.secretlessCredential() }
        return CredentialRanking.rank(
            credentials, for: requested ? [try ServiceIdentifier(Self.request)] : [],
            context: RankingContext(suffixes: NoPublicSuffixList()))
    }

    func frames(requested: Bool, keys: [TerminalEvent]) throws -> [Canvas] {
        var screen = CredentialListScreen(
            ranked: try ranked(requested: requested), requestLabel: requested ? Self.request : nil)
        let terminal = GridTerminal(size: TerminalSize(rows: 16, columns: 80))
        for event in keys + [.key(.escape)] { terminal.enqueue(event) }
        _ = try terminal.run(&screen)
        return terminal.frames
    }

    func rows(_ canvas: Canvas) -> [String] {
        canvas.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    @Test func withoutARequestTheyAreTheLastSection() throws {
        let lines = rows(try #require(frames(requested: false, keys: []).first))
        let all = try #require(lines.firstIndex { $0.contains("All credentials (2)") })
        let own = try #require(lines.firstIndex { $0.contains("Items without a site (1)") })
        let wifi = try #require(lines.firstIndex { $0.contains("Home Wi-Fi") })
        #expect(all < own && own < wifi)
        #expect(lines.firstIndex { $0.contains("Shop") }.map { $0 < own } == true)
    }

    @Test func withARequestOnlyShowAllListsThemNeverAsAMatch() throws {
        let frames = try frames(requested: true, keys: [.key(.tab)])
        let first = try #require(frames.first)
        #expect(first.text.contains("Matches for") && !first.text.contains("Home Wi-Fi"))
        let all = try #require(frames.last)
        let lines = rows(all)
        let others = try #require(lines.firstIndex { $0.contains("All other credentials (1)") })
        let own = try #require(lines.firstIndex { $0.contains("Items without a site (1)") })
        #expect(others < own && lines.firstIndex { $0.contains("Home Wi-Fi") }.map { $0 > own } == true)
    }

    @Test func theTypedFilterFindsThemByTitle() throws {
        let frames = try frames(requested: false, keys: "wifi".unicodeScalars.map { .key(.text($0)) })
        let last = try #require(frames.last)
        #expect(last.text.contains("Items without a site (1)") && last.text.contains("Home Wi-Fi"))
        #expect(!last.text.contains("Shop"))
    }
}
