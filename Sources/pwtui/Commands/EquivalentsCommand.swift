import ArgumentParser
import Commands
import ServiceMatching

/// `pwtui equivalents add|list|rm`: domains that are one site to the user (stored in the vault).
struct EquivalentsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "equivalents",
        abstract: "Domains to treat as one site (amazon.com, amazon.co.uk): their credentials match each other.",
        discussion: """
            Groups of sites that share one login (envato.com and themeforest.net, sony.com and \
            playstation.com) are built in, from Apple's password-manager-resources; `off` turns one off.

            Example: an amazon.com credential offered on amazon.co.uk too
              pwtui equivalents add amazon.com amazon.co.uk
            """,
        subcommands: [Add.self, List.self, Remove.self, Off.self, On.self])

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add", abstract: "Declare two or more domains equivalent.")
        @OptionGroup var global: GlobalOptions
        @Argument(
            help:
                "Plain domains (amazon.com amazon.co.uk), at least two; a domain already in a group brings its group along."
        )
        var domains: [String]

        func validate() throws {
            guard domains.count >= 2 else { throw ValidationError("name at least two domains") }
        }

        func run() throws {
            try EditEquivalents.add(domains, in: global.context())
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract:
                "List the groups, one per line (from the identity store or an unlocked agent when they can answer); built-in ones are marked."
        )
        @OptionGroup var global: GlobalOptions
        @Flag(help: "Only the groups you declared, not the built-in ones.")
        var user = false

        func run() throws {
            try EditEquivalents.list(userOnly: user, in: global.context())
        }
    }

    struct Off: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "off",
            abstract:
                "Turn off the built-in groups (domains that share a login, from Apple's list) holding these domains.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "A domain of each built-in group to turn off.")
        var domains: [String]

        func run() throws {
            try EditEquivalents.setBuiltIn(domains, on: false, in: global.context())
        }
    }

    struct On: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "on", abstract: "Turn built-in groups back on.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "A domain of each built-in group to turn on.")
        var domains: [String]

        func run() throws {
            try EditEquivalents.setBuiltIn(domains, on: true, in: global.context())
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rm", abstract: "Take domains out of their groups.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "Plain domains to take out (a group left with one domain is dropped).")
        var domains: [String]

        func run() throws {
            try EditEquivalents.remove(domains, in: global.context())
        }
    }
}
