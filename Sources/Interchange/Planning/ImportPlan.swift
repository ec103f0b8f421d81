import FoundationEssentials
import Platform
import ServiceMatching
import VaultCrypto
import VaultModel

/// What an import does with each entry, decided before anything changes: `--dry-run` prints it,
/// the import applies it, and both read the same decisions.
///
/// An entry is the same account as a credential already there (in the vault, or earlier in the
/// same file) when they share a username and a service's host and port: the question `pwtui add`
/// asks before adding.
///
/// - Same account, same password: nothing is lost by skipping it, but it may bring what the
///   credential lacks (a TOTP key, services on other sites, notes where there are none). Then it adds
///   those (`enrich`); otherwise it is a duplicate, skipped: importing twice changes nothing.
/// - Same account as an earlier entry of the same file, another password: both are the user's,
///   so both are kept whatever `--on-conflict` says. The newer (by the times the export gives,
///   else the later in the file, since exports list entries oldest first only by accident) is
///   current and the other goes to the history. An empty password never wins over a real one,
///   and is not kept in the history (pass-import's test files list a copy without a password
///   before the real login: taking the first lost the password).
/// - Same account as a vault credential, another password: a conflict, settled by
///   `--on-conflict`: `skip` (the default: nothing already there changes), `keep-both`, or
///   `update`, which makes the imported password current and keeps the old one in the history,
///   as `pwtui edit --password` does, and adds the services, notes and key the credential lacks.
///   An export's empty password never replaces a vault's real one, and a vault credential without
///   a password takes the export's whatever the policy.
/// - Not a credential (`ImportConversion.notCredential`): listed, skipped, never refusing the file.
public struct ImportPlan: Sendable {
    public enum ConflictPolicy: String, CaseIterable, Sendable {
        case skip
        case keepBoth = "keep-both"
        case update
    }

    public enum Action: Sendable, Equatable {
        case add
        /// The credential already in the vault this entry updates.
        case update(UUID)
        /// An earlier entry of this import, by its origin, whose password this newer one replaces
        /// (the earlier one kept in the history).
        case updatePending(ImportOrigin)
        /// An earlier entry of this import that is newer than this one: this password goes to
        /// its history.
        case olderPending(ImportOrigin)
        /// The same password as the vault's credential; the entry adds what it lacks (described).
        case enrich(UUID, String)
        /// The same password as an earlier entry of this import; adds what it lacks (described).
        case enrichPending(ImportOrigin, String)
        case duplicate(String)
        case conflict(String)
        case addBesides(String)
        case notLogin(String)
        /// Not a credential at all, and why.
        case notCredential(String)
        case invalid(String)

        /// Whether the entry changes a credential that is, or is about to be, in the vault.
        var isUpdate: Bool {
            switch self {
            case .update, .updatePending, .olderPending, .enrich, .enrichPending: return true
            default: return false
            }
        }
    }

    public struct Step: Sendable {
        public let origin: ImportOrigin
        /// Title, first service and username: what the report shows (never a secret, never a
        /// URL's user name or password).
        public let summary: String
        public let action: Action
    }

    /// A change to a credential in the vault.
    public struct Update: Sendable {
        public let id: UUID
        public let entry: ConvertedEntry
        /// False when the entry has the same password (or none): only what it adds is taken.
        public let replacesSecret: Bool
    }

    public private(set) var steps: [Step] = []
    public private(set) var warnings: [String] = []
    /// The credentials to add, secrets in the batch's arena, with when each was last used.
    public private(set) var additions: [ConvertedEntry] = []
    /// Updates of credentials in the vault.
    public private(set) var updates: [Update] = []
    public let batch: ImportBatch

    public var addedCount: Int { additions.count }
    public var updatedCount: Int { steps.filter(\.action.isUpdate).count }
    public var invalidCount: Int {
        steps.filter { if case .invalid = $0.action { return true } else { return false } }.count
    }

    /// Decides every entry of `batch` against `existing` (the vault's credentials, secrets in
    /// `existingSecrets`).
    public init(
        _ batch: ImportBatch, existing: [Credential], existingSecrets: SecretArena, policy: ConflictPolicy,
        now: Timestamp, suffixes: @autoclosure () -> PublicSuffixList, progress: ((Int, Int) -> Void)? = nil
    ) {
        self.batch = batch
        warnings = batch.warnings
        for failure in batch.rejected {
            steps.append(
                Step(
                    origin: failure.line.map(ImportOrigin.line) ?? .path(failure.file ?? ""), summary: "",
                    action: .invalid(failure.reason)))
        }
        // Sized once: 100,000 steps and additions grown by doubling held each old array beside
        // its copy (issue 23).
        steps.reserveCapacity(batch.rejected.count + batch.entries.count)
        additions.reserveCapacity(batch.entries.count)
        var accounts = AccountIndex()
        for credential in existing { accounts.insert(.vault(credential), for: credential) }
        for (number, entry) in batch.entries.enumerated() {
            progress?(number, batch.entries.count)
            let summary = [entry.title, entry.locations.first.map(LocationText.shown) ?? "", entry.username]
                .filter { !$0.isEmpty }.joined(separator: " · ")
            if case .other(let kind) = entry.kind {
                steps.append(Step(origin: entry.origin, summary: summary, action: .notLogin(kind)))
                continue
            }
            if let reason = ImportConversion.notCredential(entry) {
                steps.append(Step(origin: entry.origin, summary: summary, action: .notCredential(reason)))
                continue
            }
            let converted: ConvertedEntry
            do {
                converted = try ImportConversion.convert(
                    entry, in: batch, now: now, suffixes: suffixes(), warnings: &warnings)
            } catch {
                steps.append(Step(origin: entry.origin, summary: summary, action: .invalid("\(error)")))
                continue
            }
            let matches = accounts.matches(converted.credential)
            let action = decide(converted, matches, existingSecrets: existingSecrets, policy: policy)
            steps.append(Step(origin: entry.origin, summary: summary, action: action))
            switch action {
            case .add, .addBesides:
                accounts.insert(.pending(additions.count), for: converted.credential)
                additions.append(converted)
            case .update(let id):
                updates.append(Update(id: id, entry: converted, replacesSecret: true))
            case .enrich(let id, _):
                updates.append(Update(id: id, entry: converted, replacesSecret: false))
            case .updatePending, .olderPending, .enrichPending:
                guard case .pending(let index)? = matches.first(where: \.isPending) else { break }
                additions[index] = merged(
                    converted, into: additions[index],
                    enrichOnly: { if case .enrichPending = action { return true } else { return false } }())
            default:
                break
            }
        }
        progress?(batch.entries.count, batch.entries.count)
    }

    private func decide(
        _ entry: ConvertedEntry, _ matches: [AccountIndex.Holder], existingSecrets: SecretArena,
        policy: ConflictPolicy
    ) -> Action {
        guard !matches.isEmpty else { return .add }
        for holder in matches {
            let (secret, arena) = secretOf(holder, existingSecrets: existingSecrets)
            guard batch.secrets.hasSameBytes(entry.credential.secret, as: secret, in: arena) else { continue }
            let gains = gained(entry.credential, by: credentialOf(holder))
            guard !gains.isEmpty else { return .duplicate(describe(holder)) }
            switch holder {
            case .vault(let credential): return .enrich(credential.id, gains)
            case .pending(let index): return .enrichPending(additions[index].origin, gains)
            }
        }
        // Another password than an earlier entry of the file: both are kept, the newer current.
        if case .pending(let index)? = matches.first(where: \.isPending) {
            return isNewer(entry, than: additions[index])
                ? .updatePending(additions[index].origin) : .olderPending(additions[index].origin)
        }
        let first = matches[0]
        // An export's empty password is no news about the account: the vault's real one stays.
        if entry.credential.secret.count == 0 {
            let gains = gained(entry.credential, by: credentialOf(first))
            guard case .vault(let credential) = first, !gains.isEmpty else { return .duplicate(describe(first)) }
            return .enrich(credential.id, gains)
        }
        // And a real password in the export is news about a vault credential that has none:
        // taking it loses nothing, whatever the policy.
        if case .vault(let credential) = first, credential.secret.count == 0 { return .update(credential.id) }
        switch policy {
        case .skip: return .conflict(describe(first))
        case .keepBoth: return .addBesides(describe(first))
        case .update:
            switch first {
            case .vault(let credential): return .update(credential.id)
            case .pending(let index): return .updatePending(additions[index].origin)
            }
        }
    }

    /// Whether `entry` is the newer version of the account `earlier` holds: an empty password
    /// never is (and always loses); otherwise the later time the export gives, else file order.
    private func isNewer(_ entry: ConvertedEntry, than earlier: ConvertedEntry) -> Bool {
        if entry.credential.secret.count == 0 { return false }
        if earlier.credential.secret.count == 0 { return true }
        if let incoming = entry.exportChanged, let current = earlier.exportChanged, incoming != current {
            return incoming > current
        }
        return true
    }

    /// What `incoming` would add to `existing`, for the report; empty when nothing.
    private func gained(_ incoming: Credential, by existing: Credential) -> String {
        var parts: [String] = []
        if existing.totp == nil, incoming.totp != nil { parts.append("a TOTP key") }
        let services = Self.otherSites(incoming.services, than: existing.services).count
        if services > 0 { parts.append(services == 1 ? "a service" : "\(services) services") }
        if existing.notes.isEmpty, !incoming.notes.isEmpty { parts.append("notes") }
        let fields = incoming.fields.filter { existing.field(named: $0.name) == nil }.count
        if fields > 0 { parts.append(fields == 1 ? "a field" : "\(fields) fields") }
        return parts.joined(separator: ", ")
    }

    private func credentialOf(_ holder: AccountIndex.Holder) -> Credential {
        switch holder {
        case .vault(let credential): return credential
        case .pending(let index): return additions[index].credential
        }
    }

    private func secretOf(_ holder: AccountIndex.Holder, existingSecrets: SecretArena) -> (SecretReference, SecretArena)
    {
        switch holder {
        case .vault(let credential): return (credential.secret, existingSecrets)
        case .pending(let index): return (additions[index].credential.secret, batch.secrets)
        }
    }

    private func describe(_ holder: AccountIndex.Holder) -> String {
        switch holder {
        case .vault(let credential): return "credential \(credential.id.uuidString.lowercased().prefix(8)) in the vault"
        case .pending(let index): return "\(additions[index].origin) of this file"
        }
    }

    /// `other` folded into `pending`, an entry of the same file not added yet. With `enrichOnly`
    /// (the same password) it adds only what `pending` lacks; otherwise the newer of the two
    /// passwords is current and the other, unless empty, goes to the history.
    private func merged(_ other: ConvertedEntry, into pending: ConvertedEntry, enrichOnly: Bool) -> ConvertedEntry {
        var result = pending
        let otherIsNewer = !enrichOnly && isNewer(other, than: pending)
        let (newer, older) = otherIsNewer ? (other, pending) : (pending, other)
        if !enrichOnly {
            let replaced = max(newer.credential.modified, older.credential.modified)
            var history = pending.credential.history + other.credential.history
            if older.credential.secret.count > 0 {
                history.append(PreviousSecret(secret: older.credential.secret, replaced: replaced))
            }
            result.credential.history = history.sorted { $0.replaced < $1.replaced }
            result.credential.secret = newer.credential.secret
            result.credential.modified = replaced
            result.exportChanged = [pending.exportChanged, other.exportChanged].compactMap { $0 }.max()
        }
        let added =
            enrichOnly
            ? Self.otherSites(other.credential.services, than: result.credential.services)
            : other.credential.services.filter { !result.credential.services.contains($0) }
        result.credential.services += added
        if !enrichOnly, result.credential.title.isEmpty { result.credential.title = other.credential.title }
        result.credential.notes =
            enrichOnly
            ? (result.credential.notes.isEmpty ? other.credential.notes : result.credential.notes)
            : Self.combinedNotes(older.credential.notes, newer.credential.notes)
        // The newer version's key, else whichever has one: a key is never dropped. An older
        // version's other key goes to the key history, like its password (both are this file's,
        // in the batch's arena).
        result.credential.totp = newer.credential.totp ?? older.credential.totp
        result.credential.totpHistory = (older.credential.totpHistory + newer.credential.totpHistory).sorted {
            $0.replaced < $1.replaced
        }
        if let kept = newer.credential.totp, let replaced = older.credential.totp, kept.key != replaced.key {
            let time = max(newer.credential.modified, older.credential.modified)
            result.credential.totpHistory.append(PreviousOneTimeKey(key: replaced, replaced: time))
        }
        // Fields by name: the newer version's value, and every field either has.
        var fields = newer.credential.fields
        for field in older.credential.fields where !fields.contains(where: { $0.isNamed(field.name) }) {
            fields.append(field)
        }
        result.credential.fields = fields
        result.lastUsed = [pending.lastUsed, other.lastUsed].compactMap { $0 }.max()
        return result
    }

    /// The services of `incoming` on a host and port none of `existing` has: what an entry with
    /// the same password brings. (`https://github.com/login` beside `github.com` is the same
    /// site written another way, not something to add.)
    static func otherSites(_ incoming: [ServiceIdentifier], than existing: [ServiceIdentifier]) -> [ServiceIdentifier] {
        var seen = Set(existing.map { AccountIndex.site($0) })
        return incoming.filter { seen.insert(AccountIndex.site($0)).inserted }
    }

    /// Notes of two versions of one account: both, unless one already contains the other.
    static func combinedNotes(_ current: String, _ incoming: String) -> String {
        if incoming.isEmpty || current.contains(incoming) { return current }
        if current.isEmpty || incoming.contains(current) { return incoming }
        return current + "\n\n" + incoming
    }
}

/// Credentials by account: username, host and explicit port (or, without a site, the title).
private struct AccountIndex {
    enum Holder {
        case vault(Credential)
        case pending(Int)
        var isPending: Bool { if case .pending = self { return true } else { return false } }
    }

    private var holders: [String: [Holder]] = [:]

    mutating func insert(_ holder: Holder, for credential: Credential) {
        for key in Self.keys(credential) {
            holders[key, default: []].append(holder)
        }
    }

    func matches(_ credential: Credential) -> [Holder] {
        var found: [Holder] = []
        for key in Self.keys(credential) {
            found += holders[key] ?? []
        }
        return found
    }

    /// A credential's accounts: one per site; an item without a site is its title (without
    /// case), so that importing it twice adds it once.
    private static func keys(_ credential: Credential) -> Set<String> {
        guard !credential.services.isEmpty else {
            return ["\u{1E}\(credential.title.lowercased())\u{1F}\(credential.username)"]
        }
        return Set(credential.services.map { key($0, credential.username) })
    }

    private static func key(_ service: ServiceIdentifier, _ username: String) -> String {
        "\(site(service))\u{1F}\(username)"
    }

    /// A service's host and explicit port only: `gitlab.com` and `https://gitlab.com/login` are one site.
    static func site(_ service: ServiceIdentifier) -> String {
        "\(service.host)\u{1F}\(service.port.map(String.init) ?? "")"
    }
}

extension ImportPlan {
    /// Makes the plan's changes to `vault` (not saved: the caller saves once, for all of them).
    /// Returns when each touched credential was last used, where the export said.
    @discardableResult
    public func apply(to vault: Vault) throws -> [(id: UUID, lastUsed: Timestamp)] {
        var used: [(UUID, Timestamp)] = []
        vault.reserveCapacity(forAdding: additions.count)
        for addition in additions {
            let added = try vault.adopt(addition.credential, secretsFrom: batch.secrets)
            if let lastUsed = addition.lastUsed { used.append((added.id, lastUsed)) }
        }
        for update in updates {
            let id = update.id
            let incoming = update.entry.credential
            guard let current = vault.contents.credential(withID: id) else { continue }
            if update.replacesSecret { try vault.replaceSecret(of: id, with: try copy(incoming.secret)) }
            try vault.update(id) { credential in
                if update.replacesSecret {
                    for service in incoming.services where !credential.services.contains(service) {
                        credential.services.append(service)
                    }
                } else {
                    credential.services += Self.otherSites(incoming.services, than: credential.services)
                }
                // A title shown for want of one (Bitwarden needs a name) is no news: only a new password brings one.
                if update.replacesSecret, credential.title.isEmpty { credential.title = incoming.title }
                credential.notes =
                    update.replacesSecret
                    ? Self.combinedNotes(credential.notes, incoming.notes)
                    : (credential.notes.isEmpty ? incoming.notes : credential.notes)
            }
            // A new password brings its key; the same password only adds one where there is none.
            if let totp = incoming.totp, update.replacesSecret || current.totp == nil {
                try vault.setOneTimeKey(of: id, to: totp.parameters, key: try copy(totp.key))
            }
            // A new password brings its fields' values (a replaced secret kept in the field's
            // history); the same password only adds the fields the credential lacks.
            for field in incoming.fields where update.replacesSecret || current.field(named: field.name) == nil {
                switch field.value {
                case .text(let text):
                    try vault.setField(of: id, name: field.name, text: text, secret: try SecureBytes(zeros: 0))
                case .secret(let secret):
                    try vault.setField(of: id, name: field.name, text: nil, secret: try copy(secret))
                }
            }
            if let lastUsed = update.entry.lastUsed { used.append((id, lastUsed)) }
        }
        return used
    }

    /// A secret of the batch in its own protected buffer, for the vault calls that take one.
    private func copy(_ reference: SecretReference) throws -> SecureBytes {
        do {
            return try batch.secrets.withBytes(of: reference) { (bytes) throws(VaultCryptoError) in
                try SecureBytes(copying: bytes)
            }
        } catch {
            throw VaultError.crypto(error)
        }
    }
}
