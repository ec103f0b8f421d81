import ArgumentParser
import PwtuiKit
import ServiceMatching

/// `pwtui equivalents add|list|rm`: domains that are one site to the user (stored in the vault).
struct EquivalentsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "equivalents",
        abstract: "Domains to treat as one site (amazon.com, amazon.co.uk): their credentials match each other.",
        discussion: """
            Example: an amazon.com credential offered on amazon.co.uk too
              pwtui equivalents add amazon.com amazon.co.uk
            """,
        subcommands: [Add.self, List.self, Remove.self])

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "add", abstract: "Declare two or more domains equivalent.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "Plain domains (amazon.com amazon.co.uk), at least two; a domain already in a group brings its group along.")
        var domains: [String]

        func validate() throws {
            guard domains.count >= 2 else { throw ValidationError("name at least two domains") }
        }

        func run() throws {
            try EditEquivalents.add(domains, in: global.session())
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List the groups, one per line (from the identity store or an unlocked agent when they can answer).")
        @OptionGroup var global: GlobalOptions

        func run() throws {
            try EditEquivalents.list(in: global.session())
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "rm", abstract: "Take domains out of their groups.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "Plain domains to take out (a group left with one domain is dropped).")
        var domains: [String]

        func run() throws {
            try EditEquivalents.remove(domains, in: global.session())
        }
    }
}
