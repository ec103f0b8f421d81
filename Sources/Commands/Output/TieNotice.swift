import ServiceMatching
import VaultModel

/// What `get` says on stderr when several credentials answered its services equally well
/// (`RankedCredential.isEquallyGood`) and the use history chose among them: a script reading
/// stdout still gets one answer, and the person learns that it was a choice and how to make it.
/// Never on stdout, and never from git's helper, whose stderr is no place for advice about `get`.
enum TieNotice {
    static func text(tied: Int, chosen: IdentityStore.Identity, query: CredentialQuery) -> String? {
        guard tied > 1, query.id == nil else { return nil }
        let services = query.services.map(\.text).joined(separator: " ")
        let id = chosen.id.uuidString.lowercased().prefix(8)
        return
            "pwtui: \(tied) credentials match \(services) equally well; chose \(chosen.displayTitle) (\(chosen.username), id \(id)) "
            + "by recent use (then title). Pass --id ID, or a narrower service, to choose another."
    }

    static func say(tied: Int, chosen: IdentityStore.Identity, query: CredentialQuery, in context: CommandContext) {
        if let text = text(tied: tied, chosen: chosen, query: query) { context.streams.say(text) }
    }
}
