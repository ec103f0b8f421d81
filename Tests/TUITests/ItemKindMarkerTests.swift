import Foundation
import ServiceMatching
import Testing
@testable import TUI
import VaultModel

/// The picker marks what an item is when it is not a login, after the match kind and `[code]`.
@Suite struct ItemKindMarkerTests {
    func cells(_ kind: ItemKind, code: Bool = false) throws -> CredentialColumns.Cells {
        let credential = try IdentityStore.Identity(
            id: UUID(), title: "Visa", username: "", services: [], rank: 0,
            oneTime: code ? OneTimeParameters(algorithm: .sha1, digits: 6, period: 30) : nil,
            kind: kind
        ).secretlessCredential()
        let ranked = try #require(
            CredentialRanking.rank([credential], for: [], context: RankingContext(suffixes: NoPublicSuffixList())).first
        )
        return CredentialColumns.Cells(ranked)
    }

    @Test func eachKindHasItsMarkAndALoginNone() throws {
        #expect(try cells(.login).how(compact: false) == "")
        #expect(try cells(.note).how(compact: false) == " [note]")
        #expect(try cells(.card).how(compact: true) == " [card]")
        #expect(try cells(.identity).how(compact: false) == " [identity]")
        #expect(try cells(.card, code: true).how(compact: false) == " [code] [card]")
    }
}
