import ArgumentParser
import VaultCrypto
import VaultModel

struct GetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "get",
        abstract: "Print the best match's password (or another field) without opening a screen.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "Services to match, most specific first.")
    var services: [String] = []

    @Option(help: "A credential id, or a unique prefix of at least 4 characters.")
    var id: String?

    @Option(help: "What to print: password, username, both (username, newline, password) or json.")
    var field: CredentialField = .password

    @Flag(name: .customLong("no-interaction"),
          help: "Never ask: without --master-password-fd, exit 75 at once instead of prompting.")
    var noInteraction = false

    func validate() throws {
        guard services.isEmpty != (id == nil) else {
            throw ValidationError("give either services or --id, not both and not neither")
        }
    }

    func run() throws {
        let requests = try services.map { try ServiceIdentifier($0) }
        if global.masterPasswordFD == nil, try answerFromAgent(requests) { return }
        if noInteraction, global.masterPasswordFD == nil {
            throw CommandFailure(.interactionRequired, "the vault is locked and --no-interaction forbids asking for the master password")
        }
        let vault = try global.openVault()
        let credential: Credential
        if let id {
            credential = try vault.credential(id: id)
        } else {
            let context = global.rankingContext(for: vault)
            guard let best = CredentialRanking.matches(vault.contents.credentials, for: requests, context: context).first else {
                throw VaultError.noMatch("no credential matches \(services.joined(separator: " "))")
            }
            credential = best.credential
            global.recordUse(of: credential, for: requests[0], in: context)
        }
        try field.write(credential, from: vault)
    }

    /// The fast path: an unlocked agent answers and nothing is derived here. False when no agent
    /// runs or it is locked (the caller then unlocks locally, or exits 75).
    private func answerFromAgent(_ requests: [ServiceIdentifier]) throws -> Bool {
        var request: [String: Any] = ["op": "get", "vault": global.vaultPath, "services": requests.map(\.text), "field": field.rawValue]
        if let id { request["id"] = id }
        guard let answer = try AgentClient.current?.ask(request) else { return false }
        try StandardOutput.write(answer.payload)
        return true
    }
}
