import FoundationEssentials
import Platform
import ServiceMatching
import VaultCrypto
import VaultModel

/// A `pass` or `gopass` store: a directory of `.gpg` files, one entry each, decrypted with the
/// user's own `gpg` (and so its agent and pinentry).
///
/// The conventions are pass's (`man pass`, "Data organization") that gopass and browser
/// extensions share: the first line is the password; later lines of the form `key: value` name
/// the login (`login`, `username`, `user`, `email`), the site (`url`, `website`, `site`), and an
/// `otpauth://` line is the one-time key (pass-otp). gopass may put a `---` line before its YAML
/// keys; it is skipped. Every other line is kept in the notes. The site, when no line names it,
/// comes from the entry's path as most stores are laid out: `github.com.gpg`,
/// `Web/github.com.gpg`, or `github.com/alice.gpg` (there the file name is also the login when
/// no line gives one).
public enum PassStore {
    /// Decrypts one entry file into protected memory.
    public typealias Decrypter = @Sendable (String) throws -> SecureBytes

    /// Entries taken for an account name or a site by the key before the colon (lowercased).
    static let usernameKeys: Set<String> = ["login", "username", "user", "email", "e-mail"]
    static let locationKeys: Set<String> = ["url", "website", "site", "uri", "web"]
    static let oneTimeKeys: Set<String> = ["otpauth", "totp"]

    static func read(_ directory: String, decrypter: Decrypter, progress: ((Int, Int) -> Void)?) throws -> ImportBatch {
        let files = try entries(in: directory)
        let batch = ImportBatch(format: .pass, secrets: try SecretArena())
        for (number, file) in files.enumerated() {
            progress?(number, files.count)
            let name = String(file.dropLast(".gpg".count))
            do {
                let plaintext = try decrypter(directory + "/" + file)
                try plaintext.withUnsafeBytes { bytes in
                    batch.entries.append(try entry(bytes, name: name, batch: batch))
                }
            } catch {
                batch.rejected.append(ImportFailure(file: name, "\(error)"))
            }
        }
        progress?(files.count, files.count)
        return batch
    }

    /// The entry files, relative to `directory`, sorted; refuses a directory that is not a store.
    static func entries(in directory: String) throws -> [String] {
        var files: [String] = []
        var hasRecipients = false
        // Depth first from the store's root; symbolic links are not followed into (a link to a
        // directory could loop), as `find` would not.
        var pending = [""]
        while let relative = pending.popLast() {
            let names: [String]
            do {
                names = try FileSystem.entries(of: relative.isEmpty ? directory : directory + "/" + relative)
            } catch {
                throw ImportFailure(file: relative.isEmpty ? directory : relative, "cannot be read (\(error))")
            }
            for name in names {
                let path = relative.isEmpty ? name : relative + "/" + name
                if name == ".gpg-id" { hasRecipients = true }
                // .git, .gpg-id, .public-keys: the store's machinery, not entries.
                if name.hasPrefix(".") { continue }
                if (try? FileSystem.linkStatus(directory + "/" + path))?.kind == .directory {
                    pending.append(path)
                } else if name.hasSuffix(".gpg") {
                    files.append(path)
                }
            }
        }
        guard hasRecipients || !files.isEmpty else {
            let age = FileSystem.exists(directory + "/.age-recipients")
            throw ImportFailure(
                file: directory,
                age
                    ? "is a gopass store with the age backend; pwtui reads gpg stores only (gopass convert --store <name> --move=false --crypto gpgcli)"
                    : "is not a pass store: it has no .gpg-id and no .gpg entries")
        }
        guard !files.isEmpty else { throw ImportFailure(file: directory, "is a pass store with no entries") }
        return files.sorted()
    }

    /// One decrypted entry.
    static func entry(_ bytes: UnsafeRawBufferPointer, name: String, batch: ImportBatch) throws -> ImportedEntry {
        var entry = ImportedEntry(origin: .path(name))
        entry.title = name
        // An empty entry (no bytes, or only blank lines: pass-import's test stores have one, and
        // `pass insert` of nothing makes one) is no credential: read as an entry with nothing in
        // it and no site from its path, so the plan lists it as skipped (`ImportConversion`), as
        // the CSV and Bitwarden readers' empty rows are, instead of refusing the whole store.
        guard bytes.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }) else { return entry }
        let lines = LineRanges.of(bytes)
        guard let first = lines.first else { return entry }
        entry.password = try batch.secrets.store(UnsafeRawBufferPointer(rebasing: bytes[first]))
        var notes: [String] = []
        for range in lines.dropFirst() {
            let line = UnsafeRawBufferPointer(rebasing: bytes[range])
            if line.starts(with: "otpauth://".utf8) {
                entry.oneTimeKey = try batch.secrets.store(line)
                continue
            }
            // The key is read from the bytes first: a `totp:` line's value is a secret, and must
            // not pass through a String.
            if let (key, value) = keyAndValue(line), oneTimeKeys.contains(key), !value.isEmpty, entry.oneTimeKey == nil
            {
                entry.oneTimeKey = try batch.secrets.store(UnsafeRawBufferPointer(rebasing: line[value]))
                continue
            }
            let text = String(decoding: line, as: UTF8.self)
            if text == "---" { continue }
            if let (key, range) = keyAndValue(line) {
                let value = String(decoding: UnsafeRawBufferPointer(rebasing: line[range]), as: UTF8.self)
                if usernameKeys.contains(key), entry.username.isEmpty, !value.isEmpty {
                    entry.username = value
                    continue
                }
                if locationKeys.contains(key), !value.isEmpty {
                    entry.locations.append(value)
                    continue
                }
            }
            notes.append(text)
        }
        entry.notes = notes.joined(separator: "\n").trimmingSpacesAndNewlines()
        if entry.locations.isEmpty { inferSite(from: name, into: &entry) }
        return entry
    }

    /// The site from the path, when a component is a domain: the file name, else a folder (the
    /// file name is then the login, unless a line gave one).
    private static func inferSite(from name: String, into entry: inout ImportedEntry) {
        let components = name.split(separator: "/").map(String.init)
        guard let last = components.last else { return }
        if isDomain(last) {
            entry.locations = [last]
            return
        }
        if let folder = components.dropLast().last(where: isDomain) {
            entry.locations = [folder]
            if entry.username.isEmpty, components.dropLast().last == folder { entry.username = last }
        }
    }

    private static func isDomain(_ text: String) -> Bool {
        guard text.contains("."), !text.hasPrefix("."), !text.hasSuffix("."),
            let service = try? ServiceIdentifier(text)
        else { return false }
        return service.form == .domain && service.hostKind == .name
    }

    /// A `key: value` line's key, lowercased, and where its value lies (spaces trimmed).
    private static func keyAndValue(_ line: UnsafeRawBufferPointer) -> (String, Range<Int>)? {
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > 0 else { return nil }
        let key = String(decoding: UnsafeRawBufferPointer(rebasing: line[..<colon]), as: UTF8.self)
            .trimmingSpaces().lowercased()
        guard !key.contains(" ") else { return nil }
        var start = colon + 1
        var end = line.count
        while start < end, line[start] == 0x20 || line[start] == 0x09 { start += 1 }
        while end > start, line[end - 1] == 0x20 || line[end - 1] == 0x09 { end -= 1 }
        return (key, start ..< end)
    }
}
