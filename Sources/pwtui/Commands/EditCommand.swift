import ArgumentParser
import VaultCrypto
import VaultModel

struct EditCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit",
        abstract: "Change a credential. A changed password keeps the old one in the credential's history.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The credential's id, or a unique prefix of at least 4 characters.")
    var id: String

    @Option var title: String?
    @Option var username: String?
    @Option var rank: Int32?
    @Option var notes: String?

    @Option(name: .customLong("add-service"), help: "Add a service (repeatable).")
    var addServices: [String] = []

    @Option(name: .customLong("remove-service"), help: "Remove a service, as stored (repeatable).")
    var removeServices: [String] = []

    @Flag(help: "Replace the password: from stdin, or typed twice on the terminal.")
    var password = false

    @Flag(help: "Replace the password with a generated one.")
    var generate = false

    func validate() throws {
        let changes = [title != nil, username != nil, rank != nil, notes != nil,
                       !addServices.isEmpty, !removeServices.isEmpty, password, generate]
        guard changes.contains(true) else { throw ValidationError("nothing to change: give at least one option") }
        guard !(password && generate) else { throw ValidationError("--password and --generate exclude each other") }
    }

    func run() throws {
        let added = try global.credentialServices(addServices)
        let removed = try removeServices.map { try ServiceIdentifier($0) }
        let vault = try global.openVault()
        let credential = try vault.credential(id: id)
        for service in removed where !credential.services.contains(service) {
            throw CommandFailure(.usage, "\(credential.displayTitle) has no service '\(service.text)'")
        }
        try vault.update(credential.id) { entry in
            if let title { entry.title = title }
            if let username { entry.username = username }
            if let rank { entry.rank = rank }
            if let notes { entry.notes = notes }
            entry.services.removeAll { removed.contains($0) }
            for service in added where !entry.services.contains(service) { entry.services.append(service) }
        }
        if password || generate {
            let secret = generate
                ? try PasswordGenerator.generate()
                : try SecretReader.newSecret(label: "password for \(credential.displayTitle)")
            try vault.replaceSecret(of: credential.id, with: secret)
        }
        try global.save(vault)
        StandardError.say("Updated \(credential.displayTitle) (\(credential.id.uuidString.lowercased().prefix(8))).")
    }
}
