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
/// asks before adding. Same account and same password is a duplicate, always skipped: importing
/// twice changes nothing. Same account, another password is a conflict, settled by
/// `--on-conflict`: `skip` (the default: nothing already there changes), `keep-both`, or
/// `update`, which makes the imported password current and keeps the old one in the history, as
/// `pwtui edit --password` does, and adds the services, notes and key the credential lacks.
/// Against an earlier entry of the same file, `update` works the same way on the credential
/// about to be added, so a file listing an account twice imports it once, with the later password
/// current (exports list entries oldest first only by accident, so "later" is the file's order).
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
        /// An earlier entry of this import, by its origin, that this one updates.
        case updatePending(ImportOrigin)
        case duplicate(String)
        case conflict(String)
        case addBesides(String)
        case notLogin(String)
        case invalid(String)
    }

    public struct Step: Sendable {
        public let origin: ImportOrigin
        /// Title, first service and username: what the report shows (never a secret).
        public let summary: String
        public let action: Action
    }

    public private(set) var steps: [Step] = []
    public private(set) var warnings: [String] = []
    /// The credentials to add, secrets in the batch's arena, with when each was last used.
    public private(set) var additions: [ConvertedEntry] = []
    /// Updates of credentials in the vault.
    public private(set) var updates: [(id: UUID, entry: ConvertedEntry)] = []
    public let batch: ImportBatch

    public var addedCount: Int { additions.count }
    public var updatedCount: Int { updates.count + steps.filter { if case .updatePending = $0.action { return true } else { return false } }.count }
    public var invalidCount: Int { steps.filter { if case .invalid = $0.action { return true } else { return false } }.count }

    /// Decides every entry of `batch` against `existing` (the vault's credentials, secrets in
    /// `existingSecrets`).
    public init(_ batch: ImportBatch, existing: [Credential], existingSecrets: SecretArena, policy: ConflictPolicy,
                now: Timestamp, suffixes: @autoclosure () -> PublicSuffixList, progress: ((Int, Int) -> Void)? = nil) {
        self.batch = batch
        warnings = batch.warnings
        for failure in batch.rejected {
            steps.append(Step(origin: failure.line.map(ImportOrigin.line) ?? .path(failure.file ?? ""), summary: "", action: .invalid(failure.reason)))
        }
        var accounts = AccountIndex()
        for credential in existing { accounts.insert(.vault(credential), for: credential) }
        for (number, entry) in batch.entries.enumerated() {
            progress?(number, batch.entries.count)
            let summary = [entry.title, entry.locations.first ?? "", entry.username].filter { !$0.isEmpty }.joined(separator: " · ")
            if case .other(let kind) = entry.kind {
                steps.append(Step(origin: entry.origin, summary: summary, action: .notLogin(kind)))
                continue
            }
            let converted: ConvertedEntry
            do {
                converted = try ImportConversion.convert(entry, in: batch, now: now, suffixes: suffixes(), warnings: &warnings)
            } catch {
                steps.append(Step(origin: entry.origin, summary: summary, action: .invalid("\(error)")))
                continue
            }
            let action = decide(converted, accounts.matches(converted.credential), existingSecrets: existingSecrets, policy: policy)
            steps.append(Step(origin: entry.origin, summary: summary, action: action))
            switch action {
            case .add, .addBesides:
                accounts.insert(.pending(additions.count), for: converted.credential)
                additions.append(converted)
            case .update(let id):
                updates.append((id, converted))
            case .updatePending:
                guard case .pending(let index)? = accounts.matches(converted.credential).first(where: \.isPending) else { break }
                additions[index] = merged(converted, into: additions[index])
            default:
                break
            }
        }
        progress?(batch.entries.count, batch.entries.count)
    }

    private func decide(_ entry: ConvertedEntry, _ matches: [AccountIndex.Holder], existingSecrets: SecretArena,
                        policy: ConflictPolicy) -> Action {
        guard !matches.isEmpty else { return .add }
        for holder in matches {
            let (secret, arena) = secretOf(holder, existingSecrets: existingSecrets)
            if batch.secrets.hasSameBytes(entry.credential.secret, as: secret, in: arena) {
                return .duplicate(describe(holder))
            }
        }
        let first = matches[0]
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

    private func secretOf(_ holder: AccountIndex.Holder, existingSecrets: SecretArena) -> (SecretReference, SecretArena) {
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

    /// `later` folded into `earlier`, an entry of the same file not added yet: its password
    /// current, the earlier one in the history.
    private func merged(_ later: ConvertedEntry, into earlier: ConvertedEntry) -> ConvertedEntry {
        var result = earlier
        let replaced = max(later.credential.modified, earlier.credential.modified)
        result.credential.history.append(contentsOf: later.credential.history)
        result.credential.history.append(PreviousSecret(secret: earlier.credential.secret, replaced: replaced))
        result.credential.secret = later.credential.secret
        result.credential.modified = replaced
        for service in later.credential.services where !result.credential.services.contains(service) {
            result.credential.services.append(service)
        }
        if result.credential.title.isEmpty { result.credential.title = later.credential.title }
        result.credential.notes = Self.combinedNotes(result.credential.notes, later.credential.notes)
        if let totp = later.credential.totp { result.credential.totp = totp }
        result.lastUsed = [earlier.lastUsed, later.lastUsed].compactMap { $0 }.max()
        return result
    }

    /// Notes of two versions of one account: both, unless one already contains the other.
    static func combinedNotes(_ current: String, _ incoming: String) -> String {
        if incoming.isEmpty || current.contains(incoming) { return current }
        if current.isEmpty || incoming.contains(current) { return incoming }
        return current + "\n\n" + incoming
    }
}

/// Credentials by account: username, host and explicit port.
private struct AccountIndex {
    enum Holder {
        case vault(Credential)
        case pending(Int)
        var isPending: Bool { if case .pending = self { return true } else { return false } }
    }

    private var holders: [String: [Holder]] = [:]

    mutating func insert(_ holder: Holder, for credential: Credential) {
        for key in Set(credential.services.map { Self.key($0, credential.username) }) {
            holders[key, default: []].append(holder)
        }
    }

    func matches(_ credential: Credential) -> [Holder] {
        var found: [Holder] = []
        for key in Set(credential.services.map { Self.key($0, credential.username) }) {
            found += holders[key] ?? []
        }
        return found
    }

    private static func key(_ service: ServiceIdentifier, _ username: String) -> String {
        // The explicit port only: `gitlab.com` and `https://gitlab.com/login` are one account.
        "\(service.host)\u{1F}\(service.port.map(String.init) ?? "")\u{1F}\(username)"
    }
}

extension ImportPlan {
    /// Makes the plan's changes to `vault` (not saved: the caller saves once, for all of them).
    /// Returns when each touched credential was last used, where the export said.
    @discardableResult
    public func apply(to vault: Vault) throws -> [(id: UUID, lastUsed: Timestamp)] {
        var used: [(UUID, Timestamp)] = []
        for addition in additions {
            let added = try vault.adopt(addition.credential, secretsFrom: batch.secrets)
            if let lastUsed = addition.lastUsed { used.append((added.id, lastUsed)) }
        }
        for (id, entry) in updates {
            let incoming = entry.credential
            try vault.replaceSecret(of: id, with: try copy(incoming.secret))
            try vault.update(id) { credential in
                for service in incoming.services where !credential.services.contains(service) { credential.services.append(service) }
                if credential.title.isEmpty { credential.title = incoming.title }
                credential.notes = Self.combinedNotes(credential.notes, incoming.notes)
            }
            if let totp = incoming.totp { try vault.setOneTimeKey(of: id, to: totp.parameters, key: try copy(totp.key)) }
            if let lastUsed = entry.lastUsed { used.append((id, lastUsed)) }
        }
        return used
    }

    /// A secret of the batch in its own protected buffer, for the vault calls that take one.
    private func copy(_ reference: SecretReference) throws -> SecureBytes {
        do {
            return try batch.secrets.withBytes(of: reference) { (bytes) throws(VaultCryptoError) in try SecureBytes(copying: bytes) }
        } catch {
            throw VaultError.crypto(error)
        }
    }
}
