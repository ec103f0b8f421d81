import FoundationEssentials
import Platform
import VaultCrypto
import VaultModel

/// A KeePass 2 XML export (KeePass: File → Export → KeePass XML (2.x); KeePassXC: Database →
/// Export → XML, or `keepassxc-cli export --format xml`).
///
/// `KeePassFile/Root` holds nested `Group`s of `Entry`s; an entry is a list of `String`s, each a
/// `Key` and a `Value` (`Title`, `UserName`, `Password`, `URL`, `Notes`, then anything the user
/// added), with `Times` and a `History` of earlier versions of the entry. KeePassXC keeps extra
/// URLs as `KP2A_URL`, `KP2A_URL_1`… and the one-time key as an `otp` URI; KeePass 2.47+ keeps it
/// as `TimeOtp-Secret-Base32` with `TimeOtp-Length`, `-Period` and `-Algorithm`; KeePassXC before
/// 2.6 (and its XML of entries made then) as `TOTP Seed` (base32) with `TOTP Settings`
/// (`period;digits`, `S` for Steam's codes), and the KeeOTP plugin's `otp` as
/// `key=…&size=…&step=…[&otpHashMode=…]` (the shapes KeePassXC's src/totp/totp.cpp reads). Each becomes the TOTP key, never
/// a note: a seed in the notes is a secret `show` prints without `--reveal`. The recycle bin
/// (the group `Meta/RecycleBinUUID` names) is not imported. A custom string with
/// `ProtectInMemory="True"` becomes a secret field, any other a text field. Times are ISO 8601, or in a KDBX 4
/// document base64 seconds since the year 1.
enum KeePassXML {
    static let standardKeys: Set<String> = ["Title", "UserName", "Password", "URL", "Notes"]

    static func read(_ bytes: UnsafeRawBufferPointer, arena: SecretArena) throws -> ImportBatch {
        let document = try XMLReader.document(bytes, into: arena)
        let batch = ImportBatch(format: .keepassXML, secrets: arena)
        guard document.name == "KeePassFile", let root = document.child("Root") else {
            throw ImportFailure(
                line: document.line,
                "a KeePass XML export starts with <KeePassFile> and has a <Root>; this starts with <\(document.name)>")
        }
        let recycleBin = document.child("Meta")?.child("RecycleBinUUID").map {
            batch.text($0.text).trimmingSpacesAndNewlines()
        }
        for group in root.children("Group") {
            try read(group, path: [], recycleBin: recycleBin, into: batch)
        }
        guard !batch.entries.isEmpty else { throw ImportFailure("has no entries") }
        return batch
    }

    private static func read(_ group: XMLElement, path: [String], recycleBin: String?, into batch: ImportBatch) throws {
        let uuid = group.child("UUID").map { batch.text($0.text).trimmingSpacesAndNewlines() }
        if let recycleBin, !recycleBin.isEmpty, uuid == recycleBin { return }
        let name = group.child("Name").map { batch.text($0.text) } ?? ""
        let here = path + [name]
        for element in group.children("Entry") { batch.entries.append(try entry(element, group: here, batch: batch)) }
        for child in group.children("Group") { try read(child, path: here, recycleBin: recycleBin, into: batch) }
    }

    private static func entry(_ element: XMLElement, group: [String], batch: ImportBatch) throws -> ImportedEntry {
        var entry = ImportedEntry(origin: .line(element.line))
        let strings = element.children("String").compactMap { string -> (String, SecretReference, Bool)? in
            guard let key = string.child("Key"), let value = string.child("Value") else { return nil }
            return (batch.text(key.text), value.text, value.attributes["ProtectInMemory"]?.lowercased() == "true")
        }
        var otp: [String: SecretReference] = [:]
        for (key, value, protected) in strings where value.count > 0 {
            switch key {
            case "Title": entry.title = batch.text(value)
            case "UserName": entry.username = batch.text(value)
            case "Password": entry.password = value
            case "URL": entry.locations.insert(batch.text(value).trimmingSpaces(), at: 0)
            case "Notes": entry.notes = batch.text(value)
            case "otp": otp[key] = value
            case _ where key.hasPrefix("TimeOtp-"): otp[key] = value
            case "TOTP Seed", "TOTP Settings": otp[key] = value
            case _ where key.hasPrefix("KP2A_URL"): entry.locations.append(batch.text(value).trimmingSpaces())
            // A string the user protected is a secret field, never a note.
            default:
                if protected {
                    entry.secretFields.append((key, value))
                } else {
                    entry.textFields.append((key, batch.text(value)))
                }
            }
        }
        // KeePassXC's `otp` is an otpauth URI, or the KeeOTP plugin's `key=…&size=…&step=…`.
        if let value = otp["otp"] { entry.oneTimeKey = try legacyTOTPURI(value, settings: nil, batch: batch) }
        if entry.oneTimeKey == nil, let secret = otp["TimeOtp-Secret-Base32"] {
            entry.oneTimeKey = try timeOtpURI(secret, otp, batch: batch)
        }
        if entry.oneTimeKey == nil, let seed = otp["TOTP Seed"] {
            entry.oneTimeKey = try legacyTOTPURI(
                seed, settings: otp["TOTP Settings"].map { batch.text($0) }, batch: batch)
        }
        if let tags = element.child("Tags").map({ batch.text($0.text) }), !tags.isEmpty {
            entry.extraFields.append(("tags", tags))
        }
        let groupPath = group.dropFirst().joined(separator: "/")
        if !groupPath.isEmpty { entry.extraFields.append(("group", groupPath)) }
        let times = element.child("Times")
        entry.created = time(times?.child("CreationTime"), batch)
        entry.modified = time(times?.child("LastModificationTime"), batch)
        entry.lastUsed = time(times?.child("LastAccessTime"), batch)
        // Each version in the history holds the password it had until the next version.
        var versions: [(password: SecretReference, modified: Timestamp)] = []
        for old in element.child("History")?.children("Entry") ?? [] {
            guard
                let password = old.children("String").first(where: {
                    $0.child("Key").map { batch.text($0.text) } == "Password"
                })?.child("Value")?.text,
                let modified = time(old.child("Times")?.child("LastModificationTime"), batch)
            else { continue }
            versions.append((password, modified))
        }
        versions.sort { $0.modified < $1.modified }
        for (index, version) in versions.enumerated() {
            let replaced =
                index + 1 < versions.count ? versions[index + 1].modified : (entry.modified ?? version.modified)
            let next = index + 1 < versions.count ? versions[index + 1].password : entry.password
            // A version that changed only the title holds the same password: not a previous one.
            if let next, batch.secrets.hasSameBytes(version.password, as: next, in: batch.secrets) { continue }
            entry.history.append((version.password, replaced))
        }
        // Without old versions, the password is as old as the entry's last change at most: its
        // Created would call a password changed last year as old as the entry (issue 38).
        if entry.history.isEmpty { entry.passwordSet = entry.modified }
        return entry
    }

    private static func time(_ element: XMLElement?, _ batch: ImportBatch) -> Timestamp? {
        guard let element else { return nil }
        let text = batch.text(element.text)
        return ImportedTime.iso8601(text) ?? ImportedTime.keePassBinary(text)
    }

    /// KeePassXC's legacy `TOTP Seed` and `TOTP Settings` as an `otpauth://` URI, built in
    /// protected memory. A seed that is already a URI is taken as it is; KeeOTP's
    /// `key=…&size=…&step=…` has its names changed to otpauth's; a bare seed is the secret.
    /// `TOTP Settings` (`30;6`; `30;S` for Steam, which is refused at conversion with a warning)
    /// gives the period and digits where the seed does not.
    private static func legacyTOTPURI(_ seed: SecretReference, settings: String?, batch: ImportBatch) throws
        -> SecretReference
    {
        let isURI = batch.secrets.withBytes(of: seed) { $0.starts(with: Array("otpauth://".utf8)) }
        if isURI { return seed }
        var uri = try SecureBytes(capacity: 256)
        try uri.append(utf8: "otpauth://totp/KeePassXC?")
        var named: Set<String> = []
        try batch.secrets.withBytes(of: seed) { bytes in
            guard bytes.contains(UInt8(ascii: "=")) else {
                try uri.append(utf8: "secret=")
                try uri.append(contentsOf: bytes)
                named.insert("secret")
                return
            }
            // KeeOTP's pairs: the names are not secret, the key's value is.
            let renamed = ["key": "secret", "size": "digits", "step": "period", "otphashmode": "algorithm"]
            for (index, pair) in bytes.split(separator: UInt8(ascii: "&")).enumerated() {
                let equals = pair.firstIndex(of: UInt8(ascii: "=")) ?? pair.endIndex
                let name = String(decoding: pair[..<equals], as: UTF8.self).lowercased()
                guard let otpName = renamed[name] else { continue }
                if index > 0 { try uri.append(utf8: "&") }
                try uri.append(utf8: otpName)
                try uri.append(contentsOf: UnsafeRawBufferPointer(rebasing: pair[equals...]))
                named.insert(otpName)
            }
        }
        if let settings {
            let parts = settings.split(separator: ";").map { $0.trimmingSpaces() }
            if parts.count >= 1, !named.contains("period"), !parts[0].isEmpty {
                try uri.append(utf8: "&period=\(parts[0])")
            }
            if parts.count >= 2, !named.contains("digits"), !parts[1].isEmpty {
                try uri.append(utf8: "&digits=\(parts[1])")
            }
        }
        return try uri.withUnsafeBytes { try batch.secrets.store($0) }
    }

    /// KeePass's TimeOtp settings as the `otpauth://` URI every other reader takes, built in
    /// protected memory.
    private static func timeOtpURI(_ secret: SecretReference, _ settings: [String: SecretReference], batch: ImportBatch)
        throws -> SecretReference
    {
        var uri = try SecureBytes(capacity: 256)
        try uri.append(utf8: "otpauth://totp/KeePass?secret=")
        try batch.secrets.withBytes(of: secret) { try uri.append(contentsOf: $0) }
        let names = ["TimeOtp-Length": "digits", "TimeOtp-Period": "period", "TimeOtp-Algorithm": "algorithm"]
        for (key, parameter) in names.sorted(by: { $0.key < $1.key }) {
            guard let value = settings[key] else { continue }
            // KeePass writes HMAC-SHA-256; otpauth says SHA256.
            let text = batch.text(value).replacingEvery("HMAC-", with: "").replacingEvery("-", with: "")
            try uri.append(utf8: "&\(parameter)=\(text)")
        }
        return try uri.withUnsafeBytes { try batch.secrets.store($0) }
    }

}
