import Foundation
import Platform
import PwtuiTestSupport
import ServiceMatching
import Testing
@testable import VaultModel

/// `CredentialRanking.best` (what `get` uses, one pass) must answer exactly as the full ranking
/// does: the first accepted credential of `matches`, and the run of equally good accepted ones.
@Suite("Best match without sorting")
struct BestMatchTests {
    let suffixes: PublicSuffixList = LibPSL() ?? NoPublicSuffixList()

    @Test("best agrees with matches on 400 generated vaults, requests, use histories and filters (seeded)")
    func agreesWithTheFullRanking() throws {
        var rng = SeededGenerator(seed: 5)
        let hosts = [
            "example.com", "login.example.com", "www.example.com", "a.example.com", "example.org", "github.com",
            "api.github.com", "https://example.com/login", "https://login.example.com/", "other.net",
            "sub.a.example.com",
        ]
        let titles = ["", "Alpha", "alpha", "Beta", "item 2", "item 10", "Ω"]
        var compared = 0
        for _ in 0 ..< 400 {
            var credentials: [Credential] = []
            for _ in 0 ..< Int.random(in: 1 ... 25, using: &rng) {
                let services = (0 ..< Int.random(in: 1 ... 3, using: &rng)).map { _ in hosts.randomElement(using: &rng)!
                }
                credentials.append(
                    try credential(
                        titles.randomElement(using: &rng)!, services,
                        username: ["", "alice", "bob"].randomElement(using: &rng)!,
                        rank: Int32.random(in: 0 ... 1, using: &rng)))
            }
            var usage = UsageHistory()
            for credential in credentials where Bool.random(using: &rng) {
                usage.recordUse(
                    of: credential.id, for: ["example.com", "login.example.com"].randomElement(using: &rng)!,
                    at: Timestamp(millisecondsSince1970: Int64.random(in: 1 ... 3, using: &rng)))
            }
            let context = RankingContext.testing(suffixes: suffixes, usage: usage)
            let requests = try (0 ..< Int.random(in: 1 ... 2, using: &rng)).map { _ in
                try ServiceIdentifier(hosts.randomElement(using: &rng)!)
            }
            let username = ["alice", "bob", nil, nil].randomElement(using: &rng)!
            let accepts = { (ranked: RankedCredential) in username == nil || ranked.credential.username == username }

            let ranked = CredentialRanking.matches(credentials, for: requests, context: context)
            let best = CredentialRanking.best(
                credentials, for: requests, context: context,
                accepting: {
                    accepts(RankedCredential(credential: $0, match: $1, matchedService: nil, requestIndex: 0))
                })
            // What `get` runs: the candidates looked up in the vault's host index.
            let prepared = requests.map { ServiceMatch.PreparedRequest($0, context) }
            let candidates = HostIndex(hosts: credentials.map { $0.services.map(\.host) }).positions(
                passing: HostFilter(prepared: prepared))
            let indexed = CredentialRanking.best(
                credentials, among: candidates, prepared: prepared, context: context,
                accepting: {
                    accepts(RankedCredential(credential: $0.pointee, match: $1, matchedService: nil, requestIndex: 0))
                })
            #expect(indexed?.credential.credential.id == best?.credential.credential.id)
            #expect(indexed?.tied == best?.tied)
            guard let first = ranked.firstIndex(where: accepts) else {
                #expect(best == nil)
                continue
            }
            let expectedTies = ranked[first...].prefix { $0.isEquallyGood(as: ranked[first]) }.filter(accepts).count
            let found = try #require(best)
            #expect(found.credential.credential.id == ranked[first].credential.id)
            #expect(found.credential.match == ranked[first].match)
            #expect(found.tied == expectedTies)
            compared += 1
        }
        #expect(compared > 200)
    }
}

/// The vault keeps its host index between rankings; every change to its credentials must be
/// seen by the next `get`, or an added or edited credential could not be found.
@Suite struct VaultHostIndexTests {
    let context = RankingContext.testing(suffixes: LibPSL() ?? NoPublicSuffixList())

    private func answer(_ host: String, in vault: Vault) throws -> Credential? {
        try? CredentialQuery(services: [ServiceIdentifier(host)]).rankedAnswer(in: vault, context: context).credential
    }

    @Test func addsEditsAndRemovalsAreSeenByTheNextGet() throws {
        let sample = try SampleVault()
        let vault = sample.vault
        #expect(try answer("github.com", in: vault)?.username == "alice")
        #expect(try answer("codeberg.org", in: vault) == nil)  // the index is built now, without it

        let added = try vault.add(
            services: [try ServiceIdentifier("codeberg.org")], username: "carol", secret: try secure("c"))
        #expect(try answer("codeberg.org", in: vault)?.id == added.id)

        try vault.update(added.id) { $0.services = [try ServiceIdentifier("sr.ht")] }
        #expect(try answer("codeberg.org", in: vault) == nil)
        #expect(try answer("git.sr.ht", in: vault)?.id == added.id)

        try vault.remove(added.id)
        #expect(try answer("git.sr.ht", in: vault) == nil)
    }
}

/// An `add` extends the host index and the username table the vault holds instead of dropping
/// them (issue 37: rebuilding the host index for 100,000 credentials made the first `get` after
/// each `add` take most of a second). Whatever the sequence of adds, edits and removals, and
/// whichever questions come between them, what the kept ones answer is what ones built afresh
/// for the credentials as they are answer.
@Suite struct VaultKeptIndexTests {
    @Test("kept indexes answer as fresh ones through 30 seeded sequences of adds, edits, removals and questions")
    func keptIndexesMatchFreshOnes() throws {
        var rng = SeededGenerator(seed: 37)
        let hosts = ["example.com", "login.example.com", "example.org", "github.com", "api.github.com", "other.net"]
        let usernames = ["", "alice", "bob", "Ålice"]
        let suffixes: PublicSuffixList = LibPSL() ?? NoPublicSuffixList()
        for _ in 0 ..< 30 {
            let vault = try SampleVault().vault
            for _ in 0 ..< 40 {
                switch Int.random(in: 0 ..< 10, using: &rng) {
                case 0 ..< 6:
                    let services = try (0 ..< Int.random(in: 1 ... 2, using: &rng)).map { _ in
                        try ServiceIdentifier(hosts.randomElement(using: &rng)!)
                    }
                    try vault.add(
                        services: services, username: usernames.randomElement(using: &rng)!, secret: try secure("s"))
                case 6:
                    if let id = vault.contents.credentials.randomElement(using: &rng)?.id {
                        try vault.update(id) { $0.username = usernames.randomElement(using: &rng)! }
                    }
                case 7:
                    if let id = vault.contents.credentials.randomElement(using: &rng)?.id { try vault.remove(id) }
                default:
                    // A question: builds what is not built yet (what an agent's `get` and `add` ask).
                    _ = vault.hostIndex
                    _ = vault.positions(ofUsername: "alice", keepingTable: true)
                }
                let credentials = vault.contents.credentials
                for username in usernames {
                    #expect(
                        vault.positions(ofUsername: username, keepingTable: Bool.random(using: &rng))
                            == credentials.indices.filter { credentials[$0].username == username })
                }
                let fresh = HostIndex(hosts: credentials.map { $0.services.map(\.host) })
                for host in hosts + ["www.example.com", "nothing.test"] {
                    let context = RankingContext.testing(suffixes: suffixes)
                    let filter = HostFilter(prepared: [
                        ServiceMatch.PreparedRequest(try ServiceIdentifier(host), context)
                    ])
                    #expect(vault.hostIndex.positions(passing: filter) == fresh.positions(passing: filter), "\(host)")
                }
            }
        }
    }
}
