import Foundation
import Platform
import Testing
@testable import ServiceMatching

/// The shared-credential groups Apple publishes, built in as equivalent domains.
@Suite("Built-in equivalents")
struct BuiltInEquivalentsTests {
    let suffixes: PublicSuffixList = LibPSL() ?? NoPublicSuffixList()

    @Test("The compiled groups are Resources/site-rules/shared-credentials.json's, every one")
    func compiledCopyIsCurrent() throws {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Resources/site-rules/shared-credentials.json").standardized
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [[String: Any]])
        let expected = entries.map { entry -> [String] in
            let domains =
                (entry["shared"] as? [String])
                ?? ((entry["from"] as? [String] ?? []) + (entry["to"] as? [String] ?? []))
            return Array(Set(domains.map { $0.lowercased() })).sorted()
        }
        #expect(
            BuiltInEquivalents.groups == expected, "Resources/site-rules changed: run Resources/update-site-rules.sh")
        #expect(BuiltInEquivalents.groups.count > 90)
    }

    @Test("A credential for one domain of a built-in group matches the others as equivalent, unless the group is off")
    func matchesUnlessOff() throws {
        let stored = try ServiceIdentifier("envato.com")
        let request = try ServiceIdentifier("https://themeforest.net/sign_in")
        func kind(_ disabled: Set<String>) -> MatchKind? {
            let context = RankingContext(
                suffixes: suffixes,
                equivalents: BuiltInEquivalents.combined(with: EquivalentDomains(), disabled: disabled))
            return ServiceMatch.tier(stored, ServiceMatch.PreparedRequest(request, context), context)?.kind
        }
        #expect(kind([]) == .equivalent)
        #expect(kind(["videohive.net"]) == nil, "naming any domain of the group turns it off")
        #expect(kind(["example.com"]) == .equivalent)
    }

    @Test("A user's group that shares a domain with a built-in one joins it; the user's time is kept")
    func joinsUserGroups() {
        var user = EquivalentDomains()
        user.add(["envato.com", "envato.example"], at: Timestamp(millisecondsSince1970: 7))
        let combined = BuiltInEquivalents.combined(with: user, disabled: [])
        let group = combined.group(containing: "envato.example")
        #expect(group?.contains("themeforest.net") == true)
        #expect(combined.modified == Timestamp(millisecondsSince1970: 7))
        #expect(combined.groups.filter { $0.contains("envato.com") }.count == 1)
    }
}
