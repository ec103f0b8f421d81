import Platform
import VaultCrypto
import VaultModel

/// 1Password's `.1pux` export (1Password 8: File → Export → 1PUX): a zip archive whose
/// `export.data` is JSON — `accounts[].vaults[].items[]`, each item with a `categoryUuid`
/// (001 login, 002 credit card, 003 secure note, 004 identity, 005 password, others: documents,
/// licences, servers…), an `overview` (`title`, `url`, `urls[]`, `tags`), and `details`
/// (`loginFields[]` with their `designation`, `notesPlain`, `password`, `sections[].fields[]`
/// whose `value` says its type in its one key: `concealed`, `totp`, `creditCardNumber`, `string`,
/// `monthYear`, `address`, …, and `passwordHistory[]`). Times are seconds since 1970.
///
/// What is concealed (a hidden field, a card number, a CVV, a PIN) becomes a secret field; TOTP
/// the one-time key; cards, notes and identities items of their kind. A secure note's text is its
/// secret `note` field. Items in the trash are listed, not imported; attachments are dropped.
enum OnePasswordPux {
    /// Card fields by 1Password's field id, named as every import names them.
    private static let cardNames = [
        "cardholder": "cardholder", "type": "brand", "ccnum": "number", "cvv": "security code",
        "expiry": "expiry",
    ]

    static func read(_ archive: UnsafeRawBufferPointer) throws -> ImportBatch {
        let zip = try ZipArchive(archive)
        guard let data = try zip.read("export.data", limit: ProtectedFile.limit) else {
            throw ImportFailure(
                "is a zip archive without export.data: not a 1Password .1pux export, which pwtui does not read")
        }
        let arena = try SecretArena()
        let document = try data.withUnsafeBytes { bytes in
            do {
                return try JSONReader.value(bytes, into: arena)
            } catch let failure as ImportFailure {
                throw failure.inFile("export.data")
            }
        }
        let batch = ImportBatch(format: .onePasswordPux, secrets: arena)
        guard case .array(let accounts)? = document["accounts"] else {
            throw ImportFailure("export.data has no \"accounts\": is it a 1Password .1pux export?")
        }
        var number = 0
        for account in accounts {
            guard case .array(let vaults)? = account["vaults"] else { continue }
            for vault in vaults {
                guard case .array(let items)? = vault["items"] else { continue }
                for listed in items {
                    number += 1
                    // Older exports wrap each item in {"item": …}.
                    let item = listed["item"] ?? listed
                    batch.entries.append(
                        entry(item, number: number, vault: string(vault["attrs"]?["name"], batch), batch: batch))
                }
            }
        }
        guard !batch.entries.isEmpty else { throw ImportFailure("export.data has no items") }
        return batch
    }

    private static func entry(_ item: JSONValue, number: Int, vault: String, batch: ImportBatch) -> ImportedEntry {
        var entry = ImportedEntry(origin: .path("item \(number)"))
        let category = string(item["categoryUuid"], batch)
        switch category {
        case "001", "005": break
        case "002", "101": entry.kind = .item(.card)
        case "003": entry.kind = .item(.note)
        case "004", "103", "106", "108": entry.kind = .item(.identity)
        default: entry.kind = .item(.note)
        }
        let overview = item["overview"]
        entry.title = string(overview?["title"], batch)
        let url = string(overview?["url"], batch)
        if !url.isEmpty { entry.locations.append(url) }
        if case .array(let urls)? = overview?["urls"] {
            for link in urls {
                let text = string(link["url"], batch).trimmingSpaces()
                if !text.isEmpty, !entry.locations.contains(text) { entry.locations.append(text) }
            }
        }
        if case .array(let tags)? = overview?["tags"] {
            let names = tags.map { string($0, batch) }.filter { !$0.isEmpty }
            if !names.isEmpty { entry.extraFields.append(("tags", names.joined(separator: ", "))) }
        }
        if !vault.isEmpty { entry.extraFields.append(("vault", vault)) }
        let details = item["details"]
        if case .array(let fields)? = details?["loginFields"] {
            for field in fields {
                guard case .string(let value)? = field["value"], value.count > 0 else { continue }
                switch string(field["designation"], batch) {
                case "username": entry.username = batch.text(value)
                case "password": entry.password = value
                default:
                    let name =
                        string(field["name"], batch).isEmpty ? string(field["id"], batch) : string(field["name"], batch)
                    guard !name.isEmpty else { continue }
                    if string(field["fieldType"], batch) == "P" {
                        entry.secretFields.append((name, value))
                    } else {
                        entry.textFields.append((name, batch.text(value)))
                    }
                }
            }
        }
        if case .string(let password)? = details?["password"], password.count > 0, entry.password == nil {
            entry.password = password
        }
        if case .string(let notes)? = details?["notesPlain"], notes.count > 0 {
            // A secure note's text is what the user protected: secret, never the notes `show` prints.
            if entry.kind == .item(.note), category == "003" {
                entry.secretFields.append(("note", notes))
            } else {
                entry.notes = batch.text(notes)
            }
        }
        if case .array(let sections)? = details?["sections"] {
            for section in sections {
                guard case .array(let fields)? = section["fields"] else { continue }
                for field in fields { sectionField(field, into: &entry, batch: batch) }
            }
        }
        if case .array(let history)? = details?["passwordHistory"] {
            for old in history {
                guard case .string(let value)? = old["value"], let replaced = seconds(old["time"]) else { continue }
                entry.history.append((value, replaced))
            }
        }
        entry.created = seconds(item["createdAt"])
        entry.modified = seconds(item["updatedAt"])
        if case .bool(true)? = item["trashed"] { entry.kind = .other("item in the trash") }
        if string(item["state"], batch) == "trashed" { entry.kind = .other("item in the trash") }
        if string(item["state"], batch) == "archived" { entry.extraFields.append(("archived", "yes")) }
        return entry
    }

    /// One field of a section: its value's one key says what it is.
    private static func sectionField(_ field: JSONValue, into entry: inout ImportedEntry, batch: ImportBatch) {
        guard case .object(let members)? = field["value"], let (type, value) = members.first.map({ ($0.key, $0.value) })
        else { return }
        let id = string(field["id"], batch)
        let title = string(field["title"], batch)
        let name = (entry.kind == .item(.card) ? cardNames[id] : nil) ?? (title.isEmpty ? id : title)
        guard !name.isEmpty else { return }
        switch (type, value) {
        case ("totp", .string(let key)) where key.count > 0:
            if entry.oneTimeKey == nil { entry.oneTimeKey = key } else { entry.secretFields.append((name, key)) }
        case ("concealed", .string(let secret)) where secret.count > 0,
            ("creditCardNumber", .string(let secret)) where secret.count > 0:
            entry.secretFields.append((name, secret))
        case (_, .string(let text)) where text.count > 0:
            entry.textFields.append((name, batch.text(text)))
        case ("monthYear", .number(let digits)) where digits.count == 6:
            // 202709: September 2027, written as cards print it.
            entry.textFields.append((name, "\(digits.suffix(2))/\(digits.prefix(4))"))
        case ("date", .number(let text)):
            if let time = seconds(.number(text)) {
                entry.textFields.append((name, String(time.description.prefix(10))))
            }
        case ("email", .object):
            let address = string(value["email_address"], batch)
            if !address.isEmpty { entry.textFields.append((name, address)) }
        case ("address", .object):
            let parts = ["street", "city", "state", "zip", "country"].map { string(value[$0], batch) }.filter {
                !$0.isEmpty
            }
            if !parts.isEmpty { entry.textFields.append((name, parts.joined(separator: ", "))) }
        default:
            break  // a reference to another item, an SSH key object, an empty value
        }
    }

    private static func string(_ value: JSONValue?, _ batch: ImportBatch) -> String {
        switch value {
        case .string(let reference)?: return batch.text(reference)
        case .number(let text)?: return text
        default: return ""
        }
    }

    /// Seconds since 1970, as 1Password writes its times.
    private static func seconds(_ value: JSONValue?) -> Timestamp? {
        guard case .number(let text)? = value, let seconds = Int64(text) else { return nil }
        return ImportedTime.unixSeconds(seconds)
    }
}
