import VaultModel

/// LastPass's secure notes, as its CSV export writes them: rows with the URL `http://sn`, the
/// note in the `extra` column. A plain note is free text; a typed one starts with a
/// `NoteType:Credit Card` (Address, Bank Account, Passport, …) line followed by `Key:Value` lines,
/// and a `Notes:` line whose value runs to the end of the cell.
///
/// A typed note becomes an item with fields (a credit card a card, an address or a document an
/// identity, the rest notes), its numbers and codes secret, its other values text; the `Notes:`
/// text its notes. A plain note's text becomes the item's secret `note` field. Values stay where
/// they lie in the arena: a card number never passes through a `String`.
enum LastPassNotes {
    /// LastPass's names for a card's fields, made the names every import gives them.
    private static let renamed: [String: String] = [
        "name on card": "cardholder", "type": "brand", "expiration date": "expiry",
    ]
    /// Values that are secret whatever the note type: numbers and codes that pay or identify.
    private static let secretNames: Set<String> = [
        "number", "security code", "pin", "password", "account number", "routing number", "iban", "private key",
        "passphrase", "license key", "key", "social security number", "passport number", "license number",
    ]

    static func read(_ extra: SecretReference, into entry: inout ImportedEntry, batch: ImportBatch) {
        entry.notes = ""
        let lines = batch.secrets.withBytes(of: extra) { LineRanges.of($0) }
        let text = { (range: Range<Int>) in batch.text(extra.part(range)) }
        guard let first = lines.first, text(first).hasPrefix("NoteType:") else {
            entry.kind = .item(.note)
            if extra.count > 0 { entry.secretFields.append(("note", extra)) }
            return
        }
        let type = String(text(first).dropFirst("NoteType:".count)).trimmingSpaces()
        switch type.lowercased() {
        case "credit card", "bank account": entry.kind = .item(.card)
        case "address", "driver's license", "passport", "social security": entry.kind = .item(.identity)
        default: entry.kind = .item(.note)
        }
        entry.textFields.append(("type", type))
        for line in lines.dropFirst() {
            let colon: Int? = batch.secrets.withBytes(of: extra) { bytes in
                bytes[line].firstIndex(of: UInt8(ascii: ":"))
            }
            guard let colon else { continue }
            let key = text(line.lowerBound ..< colon).trimmingSpaces()
            let valueRange = (colon + 1) ..< line.upperBound
            if key == "Notes" {
                // The free text runs to the end of the cell, line breaks and all.
                entry.notes = text((colon + 1) ..< extra.count)
                break
            }
            guard !key.isEmpty, key != "Language", !valueRange.isEmpty else { continue }
            let name = renamed[key.lowercased()] ?? key.lowercased()
            if secretNames.contains(name) || name.contains("password") {
                entry.secretFields.append((name, extra.part(valueRange)))
            } else {
                entry.textFields.append((name, text(valueRange)))
            }
        }
    }
}
