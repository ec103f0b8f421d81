import Foundation
import VaultCrypto
import VaultModel

/// Bitwarden's unencrypted JSON export, as Bitwarden writes it and `BitwardenJSON` reads it: one
/// login item per credential, every service a `uri`, the history as `passwordHistory`.
enum BitwardenJSONWriter {
    static func write(_ credentials: [Credential], of vault: Vault, to output: inout SecureBytes) throws {
        try text("{\n  \"encrypted\": false,\n  \"folders\": [],\n  \"items\": [", to: &output)
        for (index, credential) in credentials.enumerated() {
            try text(index == 0 ? "\n    {" : ",\n    {", to: &output)
            try text("\"id\": \"\(credential.id.uuidString.lowercased())\", \"organizationId\": null, \"folderId\": null, \"type\": 1, \"reprompt\": 0, ", to: &output)
            try member("name", credential.title.isEmpty ? credential.displayTitle : credential.title, to: &output)
            if credential.notes.isEmpty {
                try text("\"notes\": null, ", to: &output)
            } else {
                try member("notes", credential.notes, to: &output)
            }
            try text("\"favorite\": false, \"login\": {\"uris\": [", to: &output)
            for (number, service) in credential.services.enumerated() {
                try text(number == 0 ? "{\"match\": null, " : ", {\"match\": null, ", to: &output)
                try member("uri", service.text, last: true, to: &output)
                try text("}", to: &output)
            }
            try text("], ", to: &output)
            try member("username", credential.username, to: &output)
            try text("\"password\": ", to: &output)
            try vault.withSecret(credential.secret) { try JSONText.appendQuoted($0, to: &output) }
            try text(", \"totp\": ", to: &output)
            if let totp = credential.totp {
                try vault.withSecret(totp.key) { key in
                    let uri = try OTPAuth.uri(key: key, parameters: totp.parameters, label: credential.displayTitle)
                    try uri.withUnsafeBytes { try JSONText.appendQuoted($0, to: &output) }
                }
            } else {
                try text("null", to: &output)
            }
            try text("}, \"passwordHistory\": ", to: &output)
            if credential.history.isEmpty {
                try text("null", to: &output)
            } else {
                try text("[", to: &output)
                for (number, previous) in credential.history.enumerated() {
                    try text(number == 0 ? "{" : ", {", to: &output)
                    try member("lastUsedDate", previous.replaced.description, to: &output)
                    try text("\"password\": ", to: &output)
                    try vault.withSecret(previous.secret) { try JSONText.appendQuoted($0, to: &output) }
                    try text("}", to: &output)
                }
                try text("]", to: &output)
            }
            try text(", ", to: &output)
            try member("revisionDate", credential.modified.description, to: &output)
            try member("creationDate", credential.created.description, to: &output)
            try text("\"collectionIds\": null}", to: &output)
        }
        try text("\n  ]\n}\n", to: &output)
    }

    private static func member(_ name: String, _ value: String, last: Bool = false, to output: inout SecureBytes) throws {
        try text("\"\(name)\": \(JSONText.quote(value))" + (last ? "" : ", "), to: &output)
    }

    private static func text(_ text: String, to output: inout SecureBytes) throws {
        var text = text
        try text.withUTF8 { try output.append(contentsOf: UnsafeRawBufferPointer($0)) }
    }
}
