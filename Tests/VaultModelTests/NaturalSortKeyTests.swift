import Foundation
import ServiceMatching
import Testing
@testable import VaultModel

/// Natural order of titles: numbers by value, case and accents folded, a total order.
@Suite struct NaturalSortKeyTests {
    func naturally(_ titles: [String]) -> [String] {
        titles.sorted(by: NaturalSortKey.areInIncreasingOrder)
    }

    @Test("digit runs compare by value: 1, 2, 10, 100 — not 1, 10, 100, 2")
    func digitRuns() {
        #expect(naturally(["item 100", "item 10", "item 2", "item 1"]) == ["item 1", "item 2", "item 10", "item 100"])
        #expect(naturally(["v1.10", "v1.9", "v1.2", "v10.0"]) == ["v1.2", "v1.9", "v1.10", "v10.0"])
        #expect(naturally(["a10b2", "a10b10", "a9b99", "a10b1"]) == ["a9b99", "a10b1", "a10b2", "a10b10"])
        // Longer than any integer type: still by value.
        #expect(
            naturally(["x100000000000000000000000", "x99999999999999999999999"])
                == ["x99999999999999999999999", "x100000000000000000000000"])
        // Leading zeros do not make a number larger; equal values keep a fixed order.
        #expect(naturally(["v8", "v007", "v7", "v010"]) == ["v007", "v7", "v8", "v010"])
        // A number sorts against text where its first digit would: digits before letters.
        #expect(naturally(["ab", "a1", "a", "a-"]) == ["a", "a-", "a1", "ab"])
    }

    @Test("case does not decide, except between titles that differ only by it")
    func caseFolded() {
        #expect(naturally(["cherry", "Banana", "apple", "BANANA 2"]) == ["apple", "Banana", "BANANA 2", "cherry"])
        #expect(naturally(["a1", "A1"]) == ["A1", "a1"])
        #expect(naturally(["A1", "a1"]) == ["A1", "a1"])
    }

    @Test("accents and fullwidth forms are folded: Émile among the E's, ２ is 2")
    func unicodeFolded() {
        #expect(naturally(["Zed", "Émile", "Eagle", "éclair"]) == ["Eagle", "éclair", "Émile", "Zed"])
        #expect(naturally(["ｉｔｅｍ １０", "item 9", "item 11"]) == ["item 9", "ｉｔｅｍ １０", "item 11"])
        #expect(naturally(["日本 10", "日本 9", "Zürich"]) == ["Zürich", "日本 9", "日本 10"])
    }

    /// Random titles from an alphabet of the cases above: the order is a total order (sorting any
    /// shuffle gives one result, every pair is consistent), numbers compare by value wherever they
    /// stand, and changing case never moves a title past one it differs from by more than case.
    @Test("random titles: a total order, numbers by value, case-insensitive")
    func randomTitles() {
        var generator = SystemRandomNumberGenerator()
        let alphabet: [String] = ["a", "B", "b", "é", "E", "0", "1", "2", "9", " ", "-", ".", "ｘ", "２", "日"]
        func title() -> String {
            (0 ..< Int.random(in: 0 ... 8, using: &generator)).map { _ in
                alphabet.randomElement(using: &generator) ?? ""
            }.joined()
        }
        let titles = (0 ..< 150).map { _ in title() }
        let once = naturally(titles)
        #expect(naturally(titles.shuffled(using: &generator)) == once)
        let keys = titles.map(NaturalSortKey.init)
        for a in keys {
            for b in keys {
                let lessCount = [a < b, b < a, a == b].filter { $0 }.count
                #expect(lessCount == 1, "exactly one of <, >, == holds")
            }
        }
        for _ in 0 ..< 300 {
            let prefix = title().filter { !$0.isNumber }
            let suffix = title().filter { !$0.isNumber }
            let x = Int.random(in: 0 ... 100_000, using: &generator)
            let y = Int.random(in: 0 ... 100_000, using: &generator)
            guard x != y else { continue }
            #expect(
                NaturalSortKey.areInIncreasingOrder(prefix + "\(x)" + suffix, prefix + "\(y)" + suffix) == (x < y),
                "\(prefix)\(x)\(suffix) vs \(prefix)\(y)\(suffix)")
        }
        for _ in 0 ..< 300 {
            // Without zeros: "01" and "1" are one number, told apart by their text alone.
            let a = title().filter { $0.isASCII && $0 != "0" }
            let b = title().filter { $0.isASCII && $0 != "0" }
            guard a.lowercased() != b.lowercased() else { continue }
            #expect(
                NaturalSortKey.areInIncreasingOrder(a, b)
                    == NaturalSortKey.areInIncreasingOrder(a.uppercased(), b.lowercased()),
                "\(a) vs \(b)")
        }
    }

    @Test("credentials by title: natural order, ties by id, the same in rank's other section")
    func credentialsByTitle() throws {
        let titles = ["Server 10", "server 2", "Server 1", "Server 100", "Émile", "zeta", "alpha"]
        let credentials = try titles.map { try credential($0) }
        let expected = ["alpha", "Émile", "Server 1", "server 2", "Server 10", "Server 100", "zeta"]
        #expect(CredentialRanking.byTitle(credentials).map(\.displayTitle) == expected)
        #expect(CredentialRanking.byTitle(credentials.reversed()).map(\.displayTitle) == expected)
        let ranked = CredentialRanking.rank(
            credentials, for: [], context: RankingContext(suffixes: NoPublicSuffixList()))
        #expect(ranked.map(\.credential.displayTitle) == expected)
        let twins = try [credential("same"), credential("same"), credential("same")]
        #expect(CredentialRanking.byTitle(twins).map(\.id.uuidString) == twins.map(\.id.uuidString).sorted())
    }
}
