import Platform
import ServiceMatching

extension RankingContext {
    /// A context over `suffixes` with `equivalents` declared (each group at time 1) and `usage`.
    package static func testing(
        suffixes: PublicSuffixList, equivalents: [[String]] = [],
        usage: UsageHistory = UsageHistory()
    ) -> RankingContext {
        var domains = EquivalentDomains()
        for group in equivalents { domains.add(group, at: Timestamp(millisecondsSince1970: 1)) }
        return RankingContext(suffixes: suffixes, equivalents: domains, usage: usage)
    }
}
