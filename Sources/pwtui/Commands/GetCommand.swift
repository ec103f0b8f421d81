import ArgumentParser
import VaultCrypto
import VaultModel

struct GetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "get",
        abstract: "Print the best match's password (or another field) without opening a screen.")

    enum Field: String, ExpressibleByArgument, CaseIterable {
        case password, username, json
    }

    @OptionGroup var global: GlobalOptions

    @Argument(help: "Services to match, most specific first.")
    var services: [String] = []

    @Option(help: "A credential id, or a unique prefix of at least 4 characters.")
    var id: String?

    @Option(help: "What to print: password, username or json.")
    var field: Field = .password

    func validate() throws {
        guard services.isEmpty != (id == nil) else {
            throw ValidationError("give either services or --id, not both and not neither")
        }
    }

    func run() throws {
        let requests = try services.map { try ServiceIdentifier($0) }
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
            // Use history is a tie-break only: failing to record it must not fail the answer.
            var usage = context.usage
            usage.recordUse(of: credential.id, for: requests[0].host, at: Clock.system.now())
            try? usage.save(to: global.usagePath)
        }
        switch field {
        case .password:
            try vault.withSecret(credential.secret) { try StandardOutput.write($0) }
            try StandardOutput.write("\n")
        case .username:
            try StandardOutput.write(credential.username + "\n")
        case .json:
            var output = try SecureBytes(capacity: 512)
            let head = "{\"id\":\(JSONText.quote(credential.id.uuidString.lowercased())),"
                + "\"title\":\(JSONText.quote(credential.displayTitle)),"
                + "\"username\":\(JSONText.quote(credential.username)),"
                + "\"services\":[\(credential.services.map { JSONText.quote($0.text) }.joined(separator: ","))],"
                + "\"password\":"
            try Array(head.utf8).withUnsafeBytes { try output.append(contentsOf: $0) }
            try vault.withSecret(credential.secret) { try JSONText.appendQuoted($0, to: &output) }
            try Array("}\n".utf8).withUnsafeBytes { try output.append(contentsOf: $0) }
            try StandardOutput.write(output)
        }
    }
}
