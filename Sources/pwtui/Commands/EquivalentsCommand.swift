import ArgumentParser
import VaultModel
import ServiceMatching

/// `pwtui equivalents add|list|rm`: domains that are one site to the user (stored in the vault).
struct EquivalentsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "equivalents",
        abstract: "Domains to treat as one site (amazon.com, amazon.co.uk): their credentials match each other.",
        subcommands: [Add.self, List.self, Remove.self])

    /// Domains as given on the command line, normalised (lowercase, IDN, no trailing dot).
    static func domains(_ texts: [String]) throws -> [String] {
        try texts.map { text in
            let service = try ServiceIdentifier(text)
            guard service.form == .domain, !service.isWildcard, service.port == nil else {
                throw CommandFailure(.usage, "'\(text)' is not a plain domain")
            }
            return service.host
        }
    }

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "add", abstract: "Declare two or more domains equivalent.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "Plain domains (amazon.com amazon.co.uk), at least two; a domain already in a group brings its group along.")
        var domains: [String]

        func validate() throws {
            guard domains.count >= 2 else { throw ValidationError("name at least two domains") }
        }

        func run() throws {
            let normalized = try EquivalentsCommand.domains(domains)
            let vault = try global.openVault()
            vault.updateEquivalents { $0.add(normalized, at: $1) }
            try global.save(vault)
            if let group = vault.contents.equivalents.group(containing: normalized[0]) {
                StandardError.say("Equivalent: \(group.sorted().joined(separator: " "))")
            }
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List the groups, one per line (from the identity store or an unlocked agent when they can answer).")
        @OptionGroup var global: GlobalOptions

        func run() throws {
            let groups = try ListedIdentities.load(global).equivalents.groups
            try StandardOutput.write(groups.map { $0.joined(separator: " ") + "\n" }.joined())
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "rm", abstract: "Take domains out of their groups.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "Plain domains to take out (a group left with one domain is dropped).")
        var domains: [String]

        func run() throws {
            let normalized = try EquivalentsCommand.domains(domains)
            let vault = try global.openVault()
            var unknown: [String] = []
            vault.updateEquivalents { unknown = $0.remove(normalized, at: $1) }
            guard unknown.count < normalized.count else {
                throw CommandFailure(.noMatch, "\(unknown.joined(separator: " ")) in no group; nothing changed")
            }
            try global.save(vault)
        }
    }
}
