import Platform
import ServiceMatching
import VaultCrypto
import VaultModel

/// `pwtui add`: a new credential, its password from stdin, a no-echo prompt or the generator;
/// its id on stdout.
///
/// A credential for the same service and username already there is most often the same account
/// with a new password, and a second copy is what makes `get` pick between two later. So unless
/// `force`, that is said first: on a terminal with the offer to update the one there instead (no
/// keeps both); without one, the command refuses (64) and says how to do either. A generated
/// password is of no use unseen: on a terminal it goes to the clipboard; `printPassword` writes
/// it on stdout after the id, straight from protected memory.
public struct AddCredential {
    public var services: [String]
    public var username: String
    public var title: String
    public var notes: String
    public var rank: Int32
    public var generate: Bool
    /// Add even when a credential has the same service and username.
    public var force: Bool
    /// With `generate`: the password on stdout, on the line after the id.
    public var printPassword: Bool
    /// With `generate`: the passwordrules to meet (otherwise the site's published ones, if any).
    public var generationRules: String?
    /// An authenticator key too, read after the password (the next line of stdin, or asked).
    public var oneTimeKey = false
    /// What the item is (issue 38): a note, a card or an identity is made by hand as an import
    /// makes it — no password, a title, named fields; its one secret (a note's text, a card's
    /// number) read from stdin, all of it, into a secret field (`secretFieldName`).
    public var kind = ItemKind.login
    /// With `kind`: text fields to set (`--field NAME=VALUE`): a card's cardholder, brand and
    /// expiry, an identity's names. Text only: a secret never travels in argv.
    public var textFields: [CredentialChange.FieldEdit] = []

    /// The secret field a kind's stdin fills, as imports name it (`BitwardenItems`): a note's
    /// text is `note`, a card's number `number`; an identity has none.
    public static func secretFieldName(of kind: ItemKind) -> String? {
        switch kind {
        case .note: "note"
        case .card: "number"
        default: nil
        }
    }

    public init(
        services: [String], username: String, title: String, notes: String, rank: Int32, generate: Bool,
        force: Bool = false, printPassword: Bool = false
    ) {
        self.services = services
        self.username = username
        self.title = title
        self.notes = notes
        self.rank = rank
        self.generate = generate
        self.force = force
        self.printPassword = printPassword
    }

    public func run(in context: CommandContext) throws {
        let identifiers: [ServiceIdentifier]
        do {
            identifiers = try context.credentialServices(services)
        } catch {
            // "Home Wi-Fi" given where a service goes: what was meant is an item without a site. Never
            // for a URL or anything with an '@': that may be `user:password@host`, not to be repeated.
            guard let invalid = error as? InvalidServiceIdentifier, services.count == 1, title.isEmpty,
                Self.mayBeTitle(services[0])
            else { throw error }
            throw CommandFailure(
                .usage,
                "\(invalid); for an item without a site, give its name as the title: "
                    + "pwtui add --title \(ShellWord.quoted(services[0]))")
        }
        context.notePublicSuffixes(identifiers)
        if kind != .login {
            try addItem(identifiers, in: context)
            return
        }
        let access = try VaultAccess.open(context)
        var updating: IdentityStore.Identity?
        if !force, let duplicate = existing(try access.identities(username: username).identities, for: identifiers) {
            updating = try offerUpdate(of: duplicate, context)
        }
        let secret =
            generate
            ? try GeneratePassword(rules: generationRules, hosts: identifiers.map(\.host)).make(in: context)
            : try SecretReader.newSecret(
                label: "password for \(identifiers.first?.text ?? title)", from: context.streams)
        // Read and checked before anything is saved: a mistyped key adds nothing.
        let key =
            oneTimeKey
            ? try SecretReader.oneTimeKey(
                for: title.isEmpty ? identifiers.first?.text ?? "" : title, from: context.streams) : nil
        var touched: IdentityStore.Identity
        if let updating {
            touched = try access.apply(.edit(id: updating.id.uuidString, edits(updating, identifiers)), secret: secret)
        } else {
            touched = try access.apply(
                .add(
                    services: identifiers.map(\.text), username: username, title: defaultedTitle(identifiers),
                    notes: notes, rank: rank),
                secret: secret)
        }
        if let key {
            touched = try access.apply(
                .edit(id: touched.id.uuidString, CredentialChange.Edits(totp: .set(key.parameters))), secret: key.key)
        }
        let id = touched.id.uuidString.lowercased()
        try context.streams.write(
            id + "\n", afterSaving: updating == nil ? "the new credential \(id)" : "the new password of \(id)")
        if generate { try handOver(secret, of: touched, context) }
    }

    /// A note, a card or an identity: added with its kind and
    /// text fields in one change, then its secret field, when stdin gave one, in a second (one
    /// secret per change). The secret is read before anything is saved.
    private func addItem(_ identifiers: [ServiceIdentifier], in context: CommandContext) throws {
        let access = try VaultAccess.open(context)
        let shownTitle = title.isEmpty ? identifiers.first?.text ?? "" : title
        let fieldName = Self.secretFieldName(of: kind)
        let value =
            try fieldName.map {
                try SecretReader.optionalFieldValue(
                    label: "\($0 == "note" ? "text" : $0) of the \(kind.name) \(shownTitle)", from: context.streams)
            } ?? SecureBytes(zeros: 0)
        var then = CredentialChange.Edits()
        then.kind = kind
        then.textFields = textFields
        // No password: what is secret about the item is its secret field.
        let password = try SecureBytes(zeros: 0)
        var touched = try access.apply(
            .add(
                services: identifiers.map(\.text), username: username, title: defaultedTitle(identifiers),
                notes: notes, rank: rank, then: then),
            secret: password)
        if let fieldName, !value.isEmpty {
            touched = try access.apply(
                .edit(id: touched.id.uuidString, CredentialChange.Edits(setField: .init(name: fieldName))),
                secret: value)
        }
        let id = touched.id.uuidString.lowercased()
        try context.streams.write(id + "\n", afterSaving: "the new \(kind.name) \(id)")
    }

    /// Whether text given where a service goes could be meant as a title: not a URL, and nothing
    /// with an '@' (a pasted `user:password@host` must not be echoed back).
    public static func mayBeTitle(_ text: String) -> Bool {
        !text.contains("://") && !text.contains("@")
    }

    /// The title given, else for a URL its host (`https://www.americanexpress.com/login` is
    /// "www.americanexpress.com" in lists and messages, not the whole URL); a bare domain needs
    /// none (it is shown as it is).
    func defaultedTitle(_ identifiers: [ServiceIdentifier]) -> String {
        guard title.isEmpty, let first = identifiers.first, first.form == .url else { return title }
        return first.host
    }

    /// Updating `existing` instead of adding: the new password, and whatever else this `add`
    /// gave — a title, notes, a rank, services it lacks.
    func edits(_ existing: IdentityStore.Identity, _ identifiers: [ServiceIdentifier]) -> CredentialChange.Edits {
        var edits = CredentialChange.Edits()
        edits.replacesSecret = true
        if !title.isEmpty { edits.title = title }
        if !notes.isEmpty { edits.notes = notes }
        if rank != 0 { edits.rank = rank }
        edits.addServices = identifiers.map(\.text).filter { !existing.services.contains($0) }
        return edits
    }

    /// A credential with this username for one of `identifiers`' very hosts
    /// (`CredentialQuery.sameHost`), if any.
    func existing(_ identities: [IdentityStore.Identity], for identifiers: [ServiceIdentifier]) -> IdentityStore
        .Identity?
    {
        let sameAccount = identities.filter { $0.username == username }
        // An item without a site is the same one when it has the same title.
        if identifiers.isEmpty {
            return sameAccount.first { $0.services.isEmpty && $0.title.lowercased() == title.lowercased() }
        }
        for service in identifiers {
            if let found = CredentialReference.sameHost(service, in: sameAccount).first { return found }
        }
        return nil
    }

    /// The credential to update instead of adding one (yes on the terminal), or nil to add a
    /// second one (no); without a terminal, 64 and what to type instead.
    private func offerUpdate(of duplicate: IdentityStore.Identity, _ context: CommandContext) throws -> IdentityStore
        .Identity?
    {
        let prefix = duplicate.id.uuidString.lowercased().prefix(8)
        guard let terminal = context.terminalPrompt() else {
            throw CommandFailure(
                .usage,
                "\(duplicate.summary), id \(prefix), has this service and username already; "
                    + "to change its password: pwtui edit \(prefix) --password (or --generate); to add a second one anyway: --force"
            )
        }
        terminal.say("\(duplicate.summary), id \(prefix), has this service and username already.\n")
        return try terminal.confirm("Update its password instead of adding a second credential?") ? duplicate : nil
    }

    /// The generated password: on stdout after the id with `printPassword`; to the clipboard when
    /// stdout is a terminal; otherwise only where to find it.
    private func handOver(
        _ secret: borrowing SecureBytes, of credential: IdentityStore.Identity, _ context: CommandContext
    ) throws {
        let id = credential.id.uuidString.lowercased()
        let instead = "pwtui get --id \(id.prefix(8)) prints it"
        do {
            if printPassword {
                try secret.withUnsafeBytes { try context.streams.write($0) }
                try context.streams.write("\n")
                return
            }
            guard context.mayUseTerminal, context.streams.answerIsTerminal else {
                context.streams.say("The generated password is saved: \(instead) (or add --print next time).")
                return
            }
            let timeout = try context.settings().clipboardTimeout
            let copied = try secret.withUnsafeBytes {
                try Clipboard.copy(
                    $0, clearAfter: timeout, in: context)
            }
            context.streams.say(
                "Copied the generated password of \(credential.titleAndUsername) to the clipboard; "
                    + "\(copied.clearing(after: timeout)).")
        } catch let failure as CommandFailure {
            // Saved already: not the 74 of a vault left unchanged.
            throw CommandFailure(
                .savedButUnconfirmed, "the generated password of \(id) is saved, but \(failure.message); \(instead)")
        }
    }
}
