import ArgumentParser
import Commands
import VaultModel
import ServiceMatching

struct EditCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit",
        abstract: "Change a credential. A changed password keeps the old one in the credential's history.",
        discussion: """
            Example: a new username and a generated password for the credential whose id starts with 3f2a
              pwtui edit 3f2a --username alice@example.org --generate
            Example: the password before the last change made current again (numbers as `pwtui history` lists them)
              pwtui edit 3f2a --restore 1
            Example: the token is given only to git (and to nothing else that asks, a script included)
              pwtui edit "GitHub token" --allow-program git
            Example: a secret field (a PIN: from stdin or asked without echo), a text field, a field removed
              pwtui edit "Home bank" --field PIN
              echo North | pwtui edit "Home bank" --field branch --text
              pwtui edit "Home bank" --remove-field branch
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(
        help: "The credential: its id (or a unique prefix of at least 4 characters), a service or a title.",
        completion: CredentialCompletion.credentials)
    var id: String

    @Option(help: "A new title (empty: show the first service instead).")
    var title: String?

    @Option(help: "A new account name.")
    var username: String?

    // Unconditional: `--rank -10` is a value, not an unknown option.
    @Option(
        parsing: .unconditional,
        help: "A new rank: offered first among equally good matches when higher (may be negative).")
    var rank: Int32?

    @Option(help: "New notes, replacing the old ones (empty: none).")
    var notes: String?

    @Option(name: .customLong("add-service"), help: "Add a service (repeatable).")
    var addServices: [String] = []

    @Option(name: .customLong("remove-service"), help: "Remove a service, as stored (repeatable).")
    var removeServices: [String] = []

    @Flag(help: "Replace the password: from stdin, or typed twice on the terminal.")
    var password = false

    @Flag(help: "Replace the password with a generated one (the site's published rules apply).")
    var generate = false

    @Option(
        help: ArgumentHelp(
            "With --generate: passwordrules to meet instead of the site's own (also --generate=RULES).",
            valueName: "rules"))
    var rules: String?

    @Flag(
        help:
            "Set the authenticator key (an otpauth://totp/ URI or the base32 secret): from stdin, after a new password if one is read there, or asked without echo."
    )
    var totp = false

    @Flag(name: .customLong("remove-totp"), help: "Remove the authenticator key.")
    var removeTotp = false

    @Option(
        help:
            "Make previous password N current again, N as `pwtui history` lists them; the current one joins the history."
    )
    var restore: Int?

    @Option(
        help: ArgumentHelp(
            "Set the named field NAME: a secret field (masked in show, its old value kept in its history), its value all of stdin (every line, a trailing newline dropped) or one line asked without echo.",
            valueName: "name"))
    var field: String?

    @Flag(help: "With --field: a text field instead of a secret one (its value from stdin or the terminal).")
    var text = false

    @Option(
        name: .customLong("remove-field"),
        help: ArgumentHelp("Remove the named field NAME (repeatable).", valueName: "name"))
    var removeFields: [String] = []

    @Option(
        name: .customLong("allow-program"),
        help: ArgumentHelp(
            "Give the credential only to requests from PROGRAM (its executable's name, e.g. git; repeatable). See docs/agent.md.",
            valueName: "program"))
    var allowPrograms: [String] = []

    @Option(
        name: .customLong("disallow-program"),
        help: ArgumentHelp("Remove the binding to PROGRAM (repeatable); none left: any program.", valueName: "program"))
    var disallowPrograms: [String] = []

    func validate() throws {
        let changes = [
            title != nil, username != nil, rank != nil, notes != nil,
            !addServices.isEmpty, !removeServices.isEmpty, password, generate, restore != nil, totp, removeTotp,
            field != nil, !removeFields.isEmpty, !allowPrograms.isEmpty, !disallowPrograms.isEmpty,
        ]
        guard changes.contains(true) else { throw ValidationError("nothing to change: give at least one option") }
        guard [password, generate, restore != nil].filter({ $0 }).count <= 1 else {
            throw ValidationError("--password, --generate and --restore exclude each other")
        }
        if let restore, restore < 1 {
            throw ValidationError("--restore takes a number from 1, as `pwtui history` lists them")
        }
        guard !(totp && removeTotp) else { throw ValidationError("--totp and --remove-totp exclude each other") }
        guard rules == nil || generate else {
            throw ValidationError("--rules are for a generated password: they need --generate")
        }
        guard !text || field != nil else {
            throw ValidationError("--text is for --field: it makes the field a text one")
        }
        guard field == nil || !(password || generate || totp) else {
            throw ValidationError("--field reads its value as --password and --totp read theirs: set one at a time")
        }
        if let field, field.allSatisfy(\.isWhitespace) { throw ValidationError("--field needs a name") }
    }

    func run() throws {
        var edits = CredentialChange.Edits(
            title: title, username: username, rank: rank, notes: notes, addServices: addServices,
            removeServices: removeServices, replacesSecret: password || generate, totp: removeTotp ? .remove : nil,
            restore: restore,
            removeFields: removeFields)
        edits.allowPrograms = allowPrograms
        edits.disallowPrograms = disallowPrograms
        var edit = EditCredential(id: id, edits: edits, generate: generate, setsOneTimeKey: totp)
        edit.fieldName = field
        edit.fieldIsText = text
        edit.generationRules = rules
        try edit.run(in: global.context())
    }
}
