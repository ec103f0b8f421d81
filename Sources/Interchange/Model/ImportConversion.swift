import FoundationEssentials
import Platform
import ServiceMatching
import VaultCrypto
import VaultModel

/// An entry made a credential: what the vault would hold, its secrets still in the batch's arena.
public struct ConvertedEntry: Sendable {
    public var origin: ImportOrigin
    public var credential: Credential
    public var lastUsed: Timestamp?
    /// When the export says the entry last changed (its modified, else created time), if it says:
    /// of two versions of one account in a file, the newer becomes current.
    public var exportChanged: Timestamp? = nil
}

/// Turns what an export says into what a vault holds, with the same rules for every format.
///
/// Every location that is a URL or a domain becomes a service, parsed exactly as `pwtui add`
/// parses one (a wildcard over a public suffix is refused the same way). A bare host with a path
/// (`example.com/login`, common in KeePass) is read as an https URL. A bare word (`aib`, `note`:
/// a title some exports repeat in the URL column) is no service: a single-label host is taken
/// only as a URL or as `localhost`. A URL with a user name or password before '@' is filed under
/// its site with that part left out. A location that is none of these (an `androidapp://` link,
/// an `ssh://` address, free text) is not lost: it goes in the notes (never with a userinfo), with
/// a warning naming the entry. An entry left with no service at all (a Wi-Fi password, a licence
/// key, a server's login without a URL) becomes an item without a site, named by its title (else
/// its username). Fields the vault has no place for (folders,
/// tags) become `name: value` lines in the notes; custom fields become named fields, secret where
/// the export marks them hidden or protected. The notes' line ends become LF (a
/// CR shows as garbage in a terminal and makes two equal notes differ).
///
/// Some entries are not credentials at all (`notCredential`): an entry with neither a username,
/// a password nor a site (an empty entry, a note exported as a login), Firefox's own account row
/// (`chrome://FirefoxAccounts`). They are listed as skipped with the reason, and never refuse
/// the file.
enum ImportConversion {
    /// The credential `entry` becomes; what was noticed on the way is added to `warnings`, also
    /// when the entry is refused.
    static func convert(
        _ entry: ImportedEntry, in batch: ImportBatch, now: Timestamp,
        suffixes: @autoclosure () -> PublicSuffixList, warnings: inout [String]
    ) throws -> ConvertedEntry {
        var services: [ServiceIdentifier] = []
        var kept: [String] = []
        for location in entry.locations {
            let withoutUserinfo = LocationText.kept(location)
            if let service = service(withoutUserinfo, suffixes: suffixes()) {
                if !services.contains(service) { services.append(service) }
                if withoutUserinfo != location {
                    warnings.append(
                        "\(entry.origin): the user name or password before '@' in '\(LocationText.shown(location).prefix(80))' was left out"
                    )
                }
            } else {
                kept.append(withoutUserinfo)
                warnings.append(
                    "\(entry.origin): '\(LocationText.shown(location).prefix(80))' is not a web address; it is kept in the notes"
                )
            }
        }
        // No site: an item of its own (format 1.3), named by its title, else its username.
        var title = oneLine(entry.title)
        if services.isEmpty, title.isEmpty {
            title = oneLine(entry.username).isEmpty ? "Imported from \(entry.origin)" : oneLine(entry.username)
        }
        var notes = entry.notes
        let lines =
            kept.map { "URL: \($0)" } + entry.extraFields.filter { !$0.value.isEmpty }.map { "\($0.name): \($0.value)" }
        if !lines.isEmpty { notes += (notes.isEmpty ? "" : "\n\n") + lines.joined(separator: "\n") }
        notes = lfLineEnds(notes)

        let created = entry.created ?? entry.modified ?? now
        let secret = try entry.password ?? batch.secrets.store(UnsafeRawBufferPointer(start: nil, count: 0))
        var credential = Credential(
            id: UUID(), title: title, services: services, username: oneLine(entry.username), secret: secret,
            notes: notes, created: created, modified: max(entry.modified ?? created, created),
            history: entry.history.map { PreviousSecret(secret: $0.secret, replaced: $0.replaced) },
            fields: Self.fields(entry))
        if case .item(let kind) = entry.kind { credential.kind = kind }
        if let set = entry.passwordSet, set > created { credential.importedSecretSet = set }
        if let key = entry.oneTimeKey {
            do {
                let parsed = try batch.secrets.withBytes(of: key) { (text) throws(OTPAuth.Failure) in
                    try OTPAuth.parse(text)
                }
                credential.totp = OneTimeKey(parameters: parsed.parameters, key: try batch.secrets.store(parsed.key))
            } catch let failure as OTPAuth.Failure {
                warnings.append(
                    "\(entry.origin): its one-time key is not imported (\(failure)); add it with pwtui edit --totp")
            }
        }
        do {
            try Limits.check(credential)
            try Limits.checkSecret(byteCount: credential.secret.count)
        } catch let error as VaultError {
            if case .invalidRequest(let reason) = error { throw ImportFailure(reason) }
            throw error
        }
        return ConvertedEntry(
            origin: entry.origin, credential: credential, lastUsed: entry.lastUsed,
            exportChanged: entry.modified ?? entry.created)
    }

    /// The entry's custom fields: text ones with a value, and secret ones; one per name (the
    /// first), since the vault names a field once.
    private static func fields(_ entry: ImportedEntry) -> [NamedField] {
        var fields: [NamedField] = []
        func add(_ field: NamedField) {
            guard !field.name.isEmpty, !fields.contains(where: { $0.isNamed(field.name) }) else { return }
            fields.append(field)
        }
        for (name, value) in entry.textFields where !value.isEmpty {
            add(NamedField(name: oneLine(name), value: .text(lfLineEnds(value))))
        }
        for (name, value) in entry.secretFields {
            // A secret field brings its earlier values along, oldest first as the vault keeps them.
            let history = entry.fieldHistory.filter { $0.name.lowercased() == oneLine(name).lowercased() }
                .sorted { $0.replaced < $1.replaced }.map { PreviousSecret(secret: $0.secret, replaced: $0.replaced) }
            add(NamedField(name: oneLine(name), value: .secret(value), history: history))
        }
        return fields
    }

    /// Why `entry` is not a credential at all, or nil when it is one.
    static func notCredential(_ entry: ImportedEntry) -> String? {
        // A note, card or identity is what its fields say; only an empty one is nothing.
        if case .item(let kind) = entry.kind {
            let empty =
                entry.secretFields.allSatisfy { $0.value.count == 0 }
                && entry.textFields.allSatisfy { $0.value.isEmpty }
                && entry.notes.trimmingSpacesAndNewlines().isEmpty && (entry.password?.count ?? 0) == 0
            return empty ? "an empty \(kind.name)" : nil
        }
        if let own = entry.locations.first(where: { $0.lowercased().hasPrefix("chrome://") }) {
            return "the browser's own data (\(LocationText.shown(own).prefix(40))), not a site's login"
        }
        let password = entry.password?.count ?? 0
        let key = entry.oneTimeKey?.count ?? 0
        // With a site, it is at least a login page to keep (a pwtui export has such credentials).
        let site = entry.locations.contains { !$0.trimmingSpacesAndNewlines().isEmpty }
        guard entry.username.trimmingSpacesAndNewlines().isEmpty, password == 0, key == 0, !site,
            entry.secretFields.isEmpty,
            entry.textFields.allSatisfy({ $0.value.isEmpty })
        else { return nil }
        if entry.notes.trimmingSpacesAndNewlines().isEmpty, entry.extraFields.allSatisfy({ $0.value.isEmpty }) {
            return "an empty entry: no username and no password"
        }
        return "no username and no password, so not a login; its notes are not imported"
    }

    /// A location as a service: as written, else a scheme-less host with a path read as https.
    private static func service(_ location: String, suffixes: @autoclosure () -> PublicSuffixList) -> ServiceIdentifier?
    {
        if isBareWord(location) { return nil }
        if let service = try? CredentialChange.credentialServices([location], suffixes: suffixes()).first {
            return service
        }
        guard !location.contains("://"), location.contains("/"), !location.contains(" ") else { return nil }
        return try? CredentialChange.credentialServices(["https://" + location], suffixes: suffixes()).first
    }

    /// A single word without a scheme, a dot or a port (`aib`, `note`): a title or a label in the
    /// URL column, not a host anyone types. `localhost` is the one such host people do mean.
    private static func isBareWord(_ location: String) -> Bool {
        !location.contains(":") && !location.contains(".") && !location.contains("/")
            && location.lowercased() != "localhost"
    }

    /// Text with every CR LF and lone CR made an LF.
    static func lfLineEnds(_ text: String) -> String {
        guard text.utf8.contains(0x0D) else { return text }
        var result = String.UnicodeScalarView()
        var afterCR = false
        for scalar in text.unicodeScalars {
            defer { afterCR = scalar == "\r" }
            if scalar == "\n", afterCR { continue }
            result.append(scalar == "\r" ? "\n" : scalar)
        }
        return String(result)
    }

    /// Titles and usernames are one line: what surrounds them (spaces, a newline some exports
    /// leave at the end) is trimmed.
    private static func oneLine(_ text: String) -> String {
        // Nothing to trim (nearly always): the same string, shared, not a copy per entry.
        guard let first = text.unicodeScalars.first, let last = text.unicodeScalars.last,
            first.isHorizontalSpace || first.isLineEnd || last.isHorizontalSpace || last.isLineEnd
        else { return text }
        return text.trimmingSpacesAndNewlines()
    }
}
