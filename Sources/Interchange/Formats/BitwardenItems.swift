import VaultModel

/// Bitwarden's items that are not logins (type 2 secure note, 3 card, 4 identity), as its JSON
/// export writes them: a `card` object (`cardholderName`, `brand`, `number`, `expMonth`,
/// `expYear`, `code`) and an `identity` object (`title`, names, address lines, `email`, `phone`,
/// `company`, `ssn`, `passportNumber`, `licenseNumber`, `username`). Each becomes an item of its
/// kind with named fields: what would let someone pay or pass as the user (a card's number and
/// code, an identity's document numbers) secret, the rest text. A secure note's text is secret
/// too: the user chose to keep it in a password manager, and `show` prints notes as they are.
enum BitwardenItems {
    /// The names Bitwarden's export gives a card's members, and the field each becomes.
    static let cardFields: [(member: String, name: String, secret: Bool)] = [
        ("cardholderName", "cardholder", false), ("brand", "brand", false), ("number", "number", true),
        ("code", "security code", true),
    ]

    static let identityFields: [(member: String, name: String, secret: Bool)] = [
        ("title", "title", false), ("firstName", "first name", false), ("middleName", "middle name", false),
        ("lastName", "last name", false), ("username", "username", false), ("company", "company", false),
        ("email", "email", false), ("phone", "phone", false), ("address1", "address 1", false),
        ("address2", "address 2", false), ("address3", "address 3", false), ("city", "city", false),
        ("state", "state", false), ("postalCode", "postal code", false), ("country", "country", false),
        ("ssn", "social security number", true), ("passportNumber", "passport number", true),
        ("licenseNumber", "license number", true),
    ]

    /// The note's text stays where the reader put it in the arena, as the secret `note` field.
    static func secureNote(_ item: JSONValue, into entry: inout ImportedEntry) {
        entry.kind = .item(.note)
        entry.notes = ""
        if case .string(let text)? = item["notes"], text.count > 0 { entry.secretFields.append(("note", text)) }
    }

    static func card(_ item: JSONValue, into entry: inout ImportedEntry, batch: ImportBatch) {
        entry.kind = .item(.card)
        guard let card = item["card"] else { return }
        copy(cardFields, from: card, into: &entry, batch: batch)
        let month = string(card["expMonth"], batch), year = string(card["expYear"], batch)
        if !month.isEmpty || !year.isEmpty {
            entry.textFields.append(("expiry", month.isEmpty ? year : year.isEmpty ? month : "\(month)/\(year)"))
        }
    }

    static func identity(_ item: JSONValue, into entry: inout ImportedEntry, batch: ImportBatch) {
        entry.kind = .item(.identity)
        guard let identity = item["identity"] else { return }
        copy(identityFields, from: identity, into: &entry, batch: batch)
    }

    private static func copy(
        _ table: [(member: String, name: String, secret: Bool)], from object: JSONValue,
        into entry: inout ImportedEntry, batch: ImportBatch
    ) {
        for (member, name, secret) in table {
            guard case .string(let value)? = object[member], value.count > 0 else { continue }
            if secret {
                entry.secretFields.append((name, value))
            } else {
                entry.textFields.append((name, batch.text(value)))
            }
        }
    }

    private static func string(_ value: JSONValue?, _ batch: ImportBatch) -> String {
        switch value {
        case .string(let reference)?: return batch.text(reference)
        case .number(let text)?: return text
        default: return ""
        }
    }
}
