import ArgumentParser
import Commands
import ServiceMatching
import VaultModel

struct AddCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add a credential. The password comes from stdin, a no-echo prompt, or --generate.",
        discussion: """
            Prints the new credential's id on stdout. A credential with the same service and username \
            already there: on a terminal, an offer to update its password instead; without one, exit 64 \
            (--force adds a second one).

            Without a service, a title is enough: an item without a site (a Wi-Fi password, a licence             key), found by its title or id and never offered for a site.

            Examples: a generated password for two services of one account; a Wi-Fi password; a secure \
            note and a card (its number from stdin, the rest as text fields)
              pwtui add github.com api.github.com --username alice --generate
              pwtui add --title "Home Wi-Fi"
              pwtui add --kind note --title "Recovery codes" < codes.txt
              pwtui add --kind card --title Visa --field cardholder="Kim Doe" --field expiry=12/2029
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(
        help:
            "Services it is for: domains, URLs or webcredentials: entries (none for an item without a site: give --title)."
    )
    var services: [String] = []

    @Option(help: "The account name (needed with a service).")
    var username: String?

    @Option(help: "A title (default: the first service; without a service, what names the item).")
    var title: String = ""

    // Unconditional: `--rank -10` is a value, not an unknown option.
    @Option(parsing: .unconditional, help: "Offered first among equally good matches when higher (may be negative).")
    var rank: Int32 = 0

    @Option(help: "Free-form notes.")
    var notes: String = ""

    @Flag(help: "Generate a strong password instead of reading one (on a terminal it goes to the clipboard).")
    var generate = false

    @Option(
        help: ArgumentHelp(
            "With --generate: passwordrules to meet instead of the site's own (also --generate=RULES).",
            valueName: "rules"))
    var rules: String?

    @Flag(name: .customLong("print"), help: "With --generate: print the password on stdout, on the line after the id.")
    var printPassword = false

    @Flag(help: "Add even when a credential has the same service and username (otherwise: offer to update it).")
    var force = false

    @Option(
        help: ArgumentHelp(
            "What the item is: login (the default), note (its text from stdin), card (its number from stdin) or identity; a title is enough.",
            valueName: "kind"))
    var kind: ItemKindArgument = .login

    @Option(
        name: .customLong("field"),
        help: ArgumentHelp(
            "With --kind: a text field NAME=VALUE (repeatable): a card's cardholder, brand, expiry; an identity's names. Secret fields: pwtui edit --field.",
            valueName: "name=value"))
    var fields: [String] = []

    @Flag(
        help: ArgumentHelp(
            "Also an authenticator key (an otpauth://totp/ URI or the base32 secret), from the next line of stdin or asked without echo.",
            discussion: "Never on the command line: argv is visible to every user of the machine."))
    var totp = false

    func validate() throws {
        if kind != .login {
            guard services.isEmpty, !title.isEmpty else {
                throw ValidationError("a \(kind.rawValue) has no site: give it a --title and no service")
            }
            guard !generate, !totp, !printPassword, rules == nil, !force else {
                throw ValidationError(
                    "a \(kind.rawValue) has no password: --generate, --totp, --print, --rules and --force are for logins"
                )
            }
        }
        guard fields.isEmpty || kind != .login else {
            throw ValidationError(
                "--field NAME=VALUE is for --kind note, card or identity; a login's fields: pwtui edit --field")
        }
        for field in fields {
            guard let equals = field.firstIndex(of: "="), !field[..<equals].allSatisfy(\.isWhitespace),
                equals != field.index(before: field.endIndex)
            else {
                throw ValidationError("--field takes NAME=VALUE (e.g. --field cardholder=\"Kim Doe\"), not '\(field)'")
            }
        }
        guard !services.isEmpty || !title.isEmpty else {
            throw ValidationError("name at least one service, or give --title for an item without a site")
        }
        // One argument that is no service ("Home Wi-Fi") is for `run` to answer: it says --title.
        let titleLike =
            services.count == 1 && title.isEmpty && AddCredential.mayBeTitle(services[0])
            && (try? ServiceIdentifier(services[0])) == nil
        guard services.isEmpty || username != nil || titleLike else {
            throw ValidationError("give the account name: --username NAME")
        }
        guard !printPassword || generate else {
            throw ValidationError("--print prints a generated password: it needs --generate")
        }
        guard rules == nil || generate else {
            throw ValidationError("--rules are for a generated password: they need --generate")
        }
    }

    func run() throws {
        try Self.credential(
            services: services, username: username, title: title, notes: notes, generate: generate, force: force,
            printPassword: printPassword, rank: rank, rules: rules, totp: totp, kind: kind.itemKind, fields: fields
        ).run(in: global.context())
    }

    /// The addition asked for, from the parsed values: the one construction for this command and
    /// for the `add` read without ArgumentParser (which has no rank, rules, key, kind or fields).
    static func credential(
        services: [String], username: String?, title: String, notes: String, generate: Bool, force: Bool,
        printPassword: Bool, rank: Int32 = 0, rules: String? = nil, totp: Bool = false, kind: ItemKind = .login,
        fields: [String] = []
    ) -> AddCredential {
        var add = AddCredential(
            services: services, username: username ?? "", title: title, notes: notes, rank: rank, generate: generate,
            force: force, printPassword: printPassword)
        add.oneTimeKey = totp
        add.generationRules = rules
        add.kind = kind
        add.textFields = fields.compactMap { field in
            field.firstIndex(of: "=").map {
                CredentialChange.FieldEdit(name: String(field[..<$0]), text: String(field[field.index(after: $0)...]))
            }
        }
        return add
    }
}
