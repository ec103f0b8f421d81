import FoundationEssentials
import VaultCrypto
import VaultModel

/// Bitwarden's unencrypted JSON export, as Bitwarden writes it and `BitwardenJSON` reads it: one
/// login item per credential, every service a `uri`, the history as `passwordHistory`, named
/// fields as custom fields (a secret one hidden, type 1; its earlier values in the password
/// history as `NAME: value`, as Bitwarden records a hidden field's).
enum BitwardenJSONWriter {
    static func write(_ credentials: [Credential], of vault: Vault, to output: inout SecureBytes) throws {
        try output.append(utf8: "{\n  \"encrypted\": false,\n  \"folders\": [],\n  \"items\": [")
        for (index, credential) in credentials.enumerated() {
            try output.append(utf8: index == 0 ? "\n    {" : ",\n    {")
            let type = [ItemKind.login: 1, .note: 2, .card: 3, .identity: 4][credential.kind] ?? 1
            try output.append(
                utf8:
                    "\"id\": \"\(credential.id.uuidString.lowercased())\", \"organizationId\": null, \"folderId\": null, \"type\": \(type), \"reprompt\": 0, "
            )
            try member("name", credential.title.isEmpty ? credential.displayTitle : credential.title, to: &output)
            var custom = credential.fields
            // A secure note's text is Bitwarden's notes (where its own notes keep theirs).
            if credential.kind == .note, credential.notes.isEmpty,
                let index = custom.firstIndex(where: { $0.isNamed("note") && $0.isSecret && $0.history.isEmpty }),
                let text = custom[index].secret
            {
                custom.remove(at: index)
                try output.append(utf8: "\"notes\": ")
                try vault.withSecret(text) { try JSONText.appendQuoted($0, to: &output) }
                try output.append(utf8: ", \"secureNote\": {\"type\": 0}, ")
            } else if credential.notes.isEmpty {
                try output.append(utf8: "\"notes\": null, ")
            } else {
                try member("notes", credential.notes, to: &output)
            }
            // A card's and an identity's fields go back to Bitwarden's members for them.
            if credential.kind == .card {
                try output.append(utf8: "\"card\": ")
                try members(BitwardenItems.cardFields, expiry: true, taking: &custom, of: vault, to: &output)
            } else if credential.kind == .identity {
                try output.append(utf8: "\"identity\": ")
                try members(BitwardenItems.identityFields, expiry: false, taking: &custom, of: vault, to: &output)
            }
            try output.append(utf8: "\"favorite\": false, \"fields\": ")
            try fields(custom, of: vault, to: &output)
            try output.append(utf8: ", \"login\": {\"uris\": [")
            for (number, service) in credential.services.enumerated() {
                try output.append(utf8: number == 0 ? "{\"match\": null, " : ", {\"match\": null, ")
                try member("uri", service.text, last: true, to: &output)
                try output.append(utf8: "}")
            }
            try output.append(utf8: "], ")
            try member("username", credential.username, to: &output)
            try output.append(utf8: "\"password\": ")
            try vault.withSecret(credential.secret) { try JSONText.appendQuoted($0, to: &output) }
            try output.append(utf8: ", \"totp\": ")
            if let totp = credential.totp {
                try vault.withSecret(totp.key) { key in
                    let uri = try OTPAuth.uri(key: key, parameters: totp.parameters, label: credential.displayTitle)
                    try uri.withUnsafeBytes { try JSONText.appendQuoted($0, to: &output) }
                }
            } else {
                try output.append(utf8: "null")
            }
            try output.append(utf8: "}, \"passwordHistory\": ")
            // A secret field's earlier values go where Bitwarden puts a hidden field's: in the
            // password history, as `NAME: value`.
            let fieldHistory = credential.fields.flatMap { field in field.history.map { (field.name, $0) } }
            if credential.history.isEmpty, fieldHistory.isEmpty {
                try output.append(utf8: "null")
            } else {
                try output.append(utf8: "[")
                let entries: [(String?, PreviousSecret)] =
                    credential.history.map { (nil, $0) } + fieldHistory.map { ($0.0, $0.1) }
                for (number, (name, previous)) in entries.enumerated() {
                    try output.append(utf8: number == 0 ? "{" : ", {")
                    try member("lastUsedDate", previous.replaced.description, to: &output)
                    try output.append(utf8: "\"password\": ")
                    try vault.withSecret(previous.secret) { bytes in
                        guard let name else { return try JSONText.appendQuoted(bytes, to: &output) }
                        var labelled = try SecureBytes(capacity: name.utf8.count + 2 + bytes.count)
                        try labelled.append(utf8: name + ": ")
                        try labelled.append(contentsOf: bytes)
                        try labelled.withUnsafeBytes { try JSONText.appendQuoted($0, to: &output) }
                    }
                    try output.append(utf8: "}")
                }
                try output.append(utf8: "]")
            }
            try output.append(utf8: ", ")
            try member("revisionDate", credential.modified.description, to: &output)
            try member("creationDate", credential.created.description, to: &output)
            try output.append(utf8: "\"collectionIds\": null}")
        }
        try output.append(utf8: "\n  ]\n}\n")
    }

    /// Named fields as Bitwarden's custom fields: type 0 text, type 1 hidden (a secret field).
    private static func fields(_ fields: [NamedField], of vault: Vault, to output: inout SecureBytes) throws {
        guard !fields.isEmpty else { return try output.append(utf8: "null") }
        try output.append(utf8: "[")
        for (number, field) in fields.enumerated() {
            try output.append(utf8: number == 0 ? "{" : ", {")
            try member("name", field.name, to: &output)
            try output.append(utf8: "\"value\": ")
            switch field.value {
            case .text(let text): try output.append(utf8: JSONText.quote(text))
            case .secret(let secret): try vault.withSecret(secret) { try JSONText.appendQuoted($0, to: &output) }
            }
            try output.append(utf8: ", \"type\": \(field.isSecret ? 1 : 0), \"linkedId\": null}")
        }
        try output.append(utf8: "]")
    }

    /// `table`'s members as an object, each from the field of its name (taken out of `fields`):
    /// Bitwarden's `card` or `identity`. A card's `expiry` (`M/YYYY`) is its `expMonth` and `expYear`.
    private static func members(
        _ table: [(member: String, name: String, secret: Bool)], expiry: Bool, taking fields: inout [NamedField],
        of vault: Vault, to output: inout SecureBytes
    ) throws {
        try output.append(utf8: "{")
        var first = true
        func key(_ name: String) throws {
            try output.append(utf8: (first ? "" : ", ") + JSONText.quote(name) + ": ")
            first = false
        }
        for (member, name, secret) in table {
            guard
                let index = fields.firstIndex(where: { $0.isNamed(name) && $0.isSecret == secret && $0.history.isEmpty }
                )
            else { continue }
            try key(member)
            switch fields[index].value {
            case .text(let text): try output.append(utf8: JSONText.quote(text))
            case .secret(let reference): try vault.withSecret(reference) { try JSONText.appendQuoted($0, to: &output) }
            }
            fields.remove(at: index)
        }
        if expiry, let index = fields.firstIndex(where: { $0.isNamed("expiry") }), let text = fields[index].text {
            let parts = text.split(separator: "/", omittingEmptySubsequences: false)
            if parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isNumber) }) {
                try key("expMonth")
                try output.append(utf8: JSONText.quote(String(parts[0])))
                try key("expYear")
                try output.append(utf8: JSONText.quote(String(parts[1])))
                fields.remove(at: index)
            }
        }
        try output.append(utf8: "}, ")
    }

    private static func member(_ name: String, _ value: String, last: Bool = false, to output: inout SecureBytes) throws
    {
        try output.append(utf8: "\"\(name)\": \(JSONText.quote(value))" + (last ? "" : ", "))
    }

}
