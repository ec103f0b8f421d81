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
}

/// Turns what an export says into what a vault holds, with the same rules for every format.
///
/// Every location that is a URL or a domain becomes a service, parsed exactly as `pwtui add`
/// parses one (a wildcard over a public suffix is refused the same way). A bare host with a path
/// (`example.com/login`, common in KeePass) is read as an https URL. A location that is neither
/// (an `androidapp://` link, an `ssh://` address, free text) is not lost: it goes in the notes,
/// with a warning naming the entry. An entry left with no service at all cannot be filed under
/// a site and is refused; `--skip-invalid` imports the rest. Fields the vault has no place for
/// (folders, custom fields, tags) become `name: value` lines in the notes.
enum ImportConversion {
    /// The credential `entry` becomes; what was noticed on the way is added to `warnings`, also
    /// when the entry is refused.
    static func convert(_ entry: ImportedEntry, in batch: ImportBatch, now: Timestamp,
                        suffixes: @autoclosure () -> PublicSuffixList, warnings: inout [String]) throws -> ConvertedEntry {
        var services: [ServiceIdentifier] = []
        var kept: [String] = []
        for location in entry.locations {
            if let service = service(location, suffixes: suffixes()) {
                if !services.contains(service) { services.append(service) }
            } else if Self.hasUserinfo(location) {
                warnings.append("\(entry.origin): a URL carrying a user name or password before '@' was left out")
            } else {
                kept.append(location)
                warnings.append("\(entry.origin): '\(location.prefix(80))' is not a web address; it is kept in the notes")
            }
        }
        guard !services.isEmpty else {
            let what = entry.title.isEmpty ? "the entry" : "'\(entry.title.prefix(60))'"
            let only = kept.first.map { " (only '\($0.prefix(60))', not a web address)" } ?? ""
            throw ImportFailure("\(what) has no URL or domain\(only); pwtui files every credential under a site (add one in the export, or --skip-invalid imports the rest)")
        }
        var notes = entry.notes
        let lines = kept.map { "URL: \($0)" } + entry.extraFields.filter { !$0.value.isEmpty }.map { "\($0.name): \($0.value)" }
        if !lines.isEmpty { notes += (notes.isEmpty ? "" : "\n\n") + lines.joined(separator: "\n") }

        let created = entry.created ?? entry.modified ?? now
        let secret = try entry.password ?? batch.secrets.store(UnsafeRawBufferPointer(start: nil, count: 0))
        var credential = Credential(
            id: UUID(), title: oneLine(entry.title), services: services, username: oneLine(entry.username), secret: secret,
            notes: notes, created: created, modified: max(entry.modified ?? created, created),
            history: entry.history.map { PreviousSecret(secret: $0.secret, replaced: $0.replaced) })
        if let key = entry.oneTimeKey {
            do {
                let parsed = try batch.secrets.withBytes(of: key) { (text) throws(OTPAuth.Failure) in try OTPAuth.parse(text) }
                credential.totp = OneTimeKey(parameters: parsed.parameters, key: try batch.secrets.store(parsed.key))
            } catch let failure as OTPAuth.Failure {
                warnings.append("\(entry.origin): its one-time key is not imported (\(failure)); add it with pwtui edit --totp")
            }
        }
        do {
            try Limits.check(credential)
            try Limits.checkSecret(byteCount: credential.secret.count)
        } catch let error as VaultError {
            if case .invalidRequest(let reason) = error { throw ImportFailure(reason) }
            throw error
        }
        return ConvertedEntry(origin: entry.origin, credential: credential, lastUsed: entry.lastUsed)
    }

    /// A location as a service: as written, else a scheme-less host with a path read as https.
    private static func service(_ location: String, suffixes: @autoclosure () -> PublicSuffixList) -> ServiceIdentifier? {
        if let service = try? CredentialChange.credentialServices([location], suffixes: suffixes()).first { return service }
        guard !location.contains("://"), location.contains("/"), !location.contains(" ") else { return nil }
        return try? CredentialChange.credentialServices(["https://" + location], suffixes: suffixes()).first
    }

    /// A URL with a user name or password before its '@': refused as typed, read when the
    /// user part is dropped, as `ServiceIdentifier` does with one stored by an older pwtui.
    /// (Chrome's `android://HASH@com.example.app/` is neither: not a web address at all.)
    private static func hasUserinfo(_ location: String) -> Bool {
        (try? ServiceIdentifier(location)) == nil && (try? ServiceIdentifier(stored: location)) != nil
    }

    /// Titles and usernames are one line: what surrounds them (spaces, a newline some exports
    /// leave at the end) is trimmed.
    private static func oneLine(_ text: String) -> String {
        text.trimmingSpacesAndNewlines()
    }
}
