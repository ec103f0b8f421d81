import FoundationEssentials
import VaultModel

/// Bitwarden's unencrypted JSON export (Tools → Export vault → `.json`), as its help describes
/// it ("Condition a Bitwarden .csv or .json"): `items`, each with a `type` (1 is a login), a
/// `name`, `notes`, `fields` (custom fields), `login` with `uris`, `username`, `password` and
/// `totp`, a `passwordHistory`, `creationDate` and `revisionDate`; `folders` name the
/// `folderId`s (and an organisation's `collections` its items' `collectionIds`: kept in the notes,
/// like the folder). A hidden custom field (`type` 1) becomes a secret field, the others text fields.
/// An encrypted export is refused with what to export instead: its items are
/// ciphertext only Bitwarden can open.
enum BitwardenJSON {
    static func read(_ bytes: UnsafeRawBufferPointer, arena: SecretArena) throws -> ImportBatch {
        let document = try JSONReader.value(bytes, into: arena)
        let batch = ImportBatch(format: .bitwardenJSON, secrets: arena)
        let text = { (value: JSONValue?) -> String in
            guard case .string(let reference)? = value else { return "" }
            return batch.text(reference)
        }
        guard case .object = document else {
            throw ImportFailure(line: 1, "a Bitwarden export is a JSON object with \"items\"")
        }
        if case .bool(true)? = document["encrypted"] {
            throw ImportFailure(
                "is an encrypted Bitwarden export; export again choosing the format \".json\", not \".json (Encrypted)\""
            )
        }
        guard case .array(let items)? = document["items"] else {
            throw ImportFailure(line: 1, "has no \"items\" array; is it a Bitwarden export?")
        }
        if UnsupportedExport.isEnpass(items) {
            throw ImportFailure(
                "is an Enpass JSON export, which pwtui does not read (not supported): export CSV from Enpass, or move through Bitwarden"
            )
        }
        var folders: [String: String] = [:]
        if case .array(let list)? = document["folders"] {
            for folder in list { folders[text(folder["id"])] = text(folder["name"]) }
        }
        // An organisation's export names its collections, and each item the ones it is in.
        var collections: [String: String] = [:]
        if case .array(let list)? = document["collections"] {
            for collection in list { collections[text(collection["id"])] = text(collection["name"]) }
        }
        for (number, item) in items.enumerated() {
            // JSON values carry no line; the item's place in the list names it.
            var entry = ImportedEntry(origin: .path("item \(number + 1)"))
            entry.title = text(item["name"])
            // A secure note's text is read as a secret below, never made a String.
            if case .number("2")? = item["type"] {} else { entry.notes = text(item["notes"]) }
            if case .number(let type)? = item["type"], type != "1" {
                switch type {
                case "2": BitwardenItems.secureNote(item, into: &entry)
                case "3": BitwardenItems.card(item, into: &entry, batch: batch)
                case "4": BitwardenItems.identity(item, into: &entry, batch: batch)
                default: entry.kind = .other(type == "5" ? "SSH key" : "item of type \(type)")
                }
            }
            if case .object? = item["login"], let login = item["login"] {
                entry.username = text(login["username"])
                if case .string(let password)? = login["password"] { entry.password = password }
                if case .string(let totp)? = login["totp"], totp.count > 0 { entry.oneTimeKey = totp }
                if case .array(let uris)? = login["uris"] {
                    entry.locations = uris.map { text($0["uri"]).trimmingSpaces() }.filter { !$0.isEmpty }
                }
            }
            if case .array(let fields)? = item["fields"] {
                for field in fields {
                    let name = text(field["name"])
                    guard !name.isEmpty else { continue }
                    // Type 1 is a hidden field: a secret field, never a note.
                    if case .number("1")? = field["type"], case .string(let value)? = field["value"] {
                        if value.count > 0 { entry.secretFields.append((name, value)) }
                        continue
                    }
                    entry.textFields.append((name, text(field["value"])))
                }
            }
            let folder = folders[text(item["folderId"])] ?? ""
            if !folder.isEmpty { entry.extraFields.append(("folder", folder)) }
            if case .array(let ids)? = item["collectionIds"] {
                let names = ids.map { collections[text($0)] ?? "" }.filter { !$0.isEmpty }
                if !names.isEmpty { entry.extraFields.append(("collections", names.joined(separator: ", "))) }
            }
            entry.created = ImportedTime.iso8601(text(item["creationDate"]))
            entry.modified = ImportedTime.iso8601(text(item["revisionDate"]))
            if case .array(let history)? = item["passwordHistory"] {
                for old in history {
                    guard case .string(let password)? = old["password"],
                        let replaced = ImportedTime.iso8601(text(old["lastUsedDate"]))
                    else { continue }
                    // Bitwarden records a hidden field's old value here as `NAME: value`.
                    if let (name, value) = fieldValue(password, names: entry.secretFields.map(\.name), arena: arena) {
                        entry.fieldHistory.append((name, value, replaced))
                    } else {
                        entry.history.append((password, replaced))
                    }
                }
            }
            if item["deletedDate"].map({ if case .null = $0 { return false } else { return true } }) == true {
                entry.kind = .other("item in the trash")
            }
            batch.entries.append(entry)
        }
        guard !batch.entries.isEmpty else { throw ImportFailure("has no items") }
        return batch
    }

    /// A history entry that is a hidden field's earlier value, as Bitwarden writes it (and
    /// `BitwardenJSONWriter` too): `NAME: value` for a hidden field NAME of the same item. The
    /// value stays where it lies in the arena.
    static func fieldValue(_ entry: SecretReference, names: [String], arena: SecretArena) -> (String, SecretReference)?
    {
        arena.withBytes(of: entry) { bytes in
            for name in names {
                let prefix = Array((name + ": ").utf8)
                guard bytes.count >= prefix.count, zip(bytes, prefix).allSatisfy({ $0 == $1 }) else { continue }
                return (name, entry.part(prefix.count ..< bytes.count))
            }
            return nil
        }
    }
}
