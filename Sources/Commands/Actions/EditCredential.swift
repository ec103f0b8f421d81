import ServiceMatching
import VaultCrypto
import VaultModel

/// `pwtui edit`: changes to one credential; a new password keeps the old one in its history.
public struct EditCredential {
    public var id: String
    public var edits: CredentialChange.Edits
    /// Where a new password comes from, when `edits.replacesSecret`.
    public var generate: Bool
    /// With `generate`: the passwordrules to meet (otherwise the site's published ones, if any).
    public var generationRules: String?
    /// A new authenticator key, read from stdin or the terminal after any new password.
    public var setsOneTimeKey: Bool
    /// A named field to set, its value read from stdin or the terminal (no echo for a secret one).
    public var fieldName: String?
    /// With `fieldName`: a text field rather than a secret one.
    public var fieldIsText = false

    public init(id: String, edits: CredentialChange.Edits, generate: Bool, setsOneTimeKey: Bool = false) {
        self.id = id
        self.edits = edits
        self.generate = generate
        self.setsOneTimeKey = setsOneTimeKey
    }

    public func run(in context: CommandContext) throws {
        // Bad services are refused before any password is asked for (applying parses them again).
        context.notePublicSuffixes(try context.credentialServices(edits.addServices))
        _ = try edits.removeServices.map { try ServiceIdentifier($0) }
        let access = try VaultAccess.open(context)
        let credential = try CredentialReference(id).resolve(in: access, context: context)
        var secret =
            !edits.replacesSecret
            ? try SecureBytes(zeros: 0)
            : generate
                ? try GeneratePassword(rules: generationRules, hosts: credential.hosts).make(in: context)
                : try SecretReader.newSecret(label: "password for \(credential.displayTitle)", from: context.streams)
        // The full id: the change is about the credential shown, whatever is added meanwhile.
        var edits = edits
        if let fieldName {
            let value = try SecretReader.fieldValue(
                label: "value of the field '\(fieldName)' of \(credential.displayTitle)", secret: !fieldIsText,
                from: context.streams)
            if fieldIsText {
                // A text field is no secret: its text travels in the change.
                let text = value.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
                edits.setField = CredentialChange.FieldEdit(name: fieldName, text: text)
            } else {
                edits.setField = CredentialChange.FieldEdit(name: fieldName)
                secret = value
            }
        }
        if setsOneTimeKey {
            // A password and a key are two secrets: the password's change goes first, then the key's.
            if edits.replacesSecret || edits != CredentialChange.Edits() {
                try access.apply(.edit(id: credential.id.uuidString, edits), secret: secret)
            }
            let key = try SecretReader.oneTimeKey(for: credential.displayTitle, from: context.streams)
            edits = CredentialChange.Edits(totp: .set(key.parameters))
            try access.apply(.edit(id: credential.id.uuidString, edits), secret: key.key)
        } else {
            try access.apply(.edit(id: credential.id.uuidString, edits), secret: secret)
        }
        let named = "\(credential.displayTitle) (\(credential.id.uuidString.lowercased().prefix(8)))"
        if let number = edits.restore {
            context.streams.say(
                "Restored previous password \(number) of \(named); the one it replaced is now previous password 1.")
        } else {
            context.streams.say("Updated \(named).")
        }
    }
}
