import ArgumentParser
import Foundation
import VaultModel
import ServiceMatching

/// `pwtui suggest SERVICE...`: the ranked identities from the identity store, without unlocking
/// and without ever asking for a password (AutoFill's QuickType suggestions). Never a secret.
struct SuggestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "suggest",
        abstract: "Rank the stored identities for SERVICE(s) without unlocking (never a secret).")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "Services to rank for, most specific first.")
    var services: [String]

    @Option(help: "table or json.")
    var format: ListCommand.Format = .table

    func validate() throws {
        guard !services.isEmpty else { throw ValidationError("name at least one service") }
    }

    func run() throws {
        let requests = try services.map { try ServiceIdentifier($0) }
        // Only identities with a host that could match are built and parsed; the filter needs the
        // store's equivalent domains, read first.
        var context = global.rankingContext(equivalents: EquivalentDomains())
        let store = try global.currentIdentityStore { equivalents in
            context.equivalents = equivalents
            return HostFilter(requests: requests, context: context)
        }
        let credentials: [Credential]
        do {
            credentials = try store.identities.map { try $0.secretlessCredential() }
        } catch {
            // The store is authenticated, so this is a store an older pwtui wrote: a cache to
            // rebuild, never a usage error (the user did not type these services).
            throw CommandFailure(.interactionRequired, "the identity store holds a service this pwtui cannot read (\(error)); "
                + "any command that unlocks the vault (pwtui list) rebuilds it")
        }
        let ranked = CredentialRanking.matches(credentials, for: requests, context: context)
        guard !ranked.isEmpty || format == .json else {
            throw VaultError.noMatch("no credential matches \(services.joined(separator: " "))")
        }
        let rows = ranked.map { ($0.credential, $0.match) }
        try StandardOutput.write(format == .json ? ListCommand.json(rows, ranked: true, times: false) : ListCommand.table(rows))
    }
}
