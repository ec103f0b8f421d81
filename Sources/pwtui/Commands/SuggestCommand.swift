import ArgumentParser
import Foundation
import VaultModel

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
        let path = global.vaultPath
        let header = try Self.header(of: path)
        guard try global.settings().identityStore else {
            throw CommandFailure(.interactionRequired, "the identity store is off (identity_store = false in \(global.configPath))")
        }
        guard let store = IdentityStore.load(from: global.identityStorePath), store.isCurrent(for: header) else {
            throw CommandFailure(.interactionRequired,
                                 "the identity store is missing or older than the vault; any command that unlocks it (pwtui list) rebuilds it")
        }
        let credentials = try store.identities.map { try $0.secretlessCredential() }
        let context = RankingContext(suffixes: global.publicSuffixList(), usage: UsageHistory.load(from: global.usagePath))
        let ranked = CredentialRanking.matches(credentials, for: requests, context: context)
        guard !ranked.isEmpty || format == .json else {
            throw VaultError.noMatch("no credential matches \(services.joined(separator: " "))")
        }
        let rows = ranked.map { ($0.credential, $0.match) }
        try StandardOutput.write(format == .json ? ListCommand.json(rows, ranked: true, times: false) : ListCommand.table(rows))
    }

    /// The vault file's header, read without the password (it is not secret): enough to know
    /// whether the store is current.
    static func header(of path: String) throws -> VaultHeader {
        let file = try VaultStorage.load(path)
        return try file.withUnsafeBytes { try VaultHeader.parse($0, path: path) }
    }
}
