import UnicodeText

/// Every size pwtui accepts, declared once.
///
/// Limits used to live where each reader happened to need one (a 64 KiB agent header, a 64 KiB
/// git request silently cut, 16 MiB of agent payload, nothing at all on input), so a credential
/// could be saved that another path could not carry: a 131,000-character title saved through a
/// local unlock made every agent command for it fail. Now input is refused where it enters (the
/// vault's add / edit / replace, so the command line, the agent, the git helper and importers all
/// get the same answer, naming the field and the limit), and every reader and channel is sized
/// from these numbers, so whatever a vault can hold, every path carries.
public enum Limits {
    /// A password or other secret, and any line read for one (stdin, a descriptor, the terminal).
    public static let secretBytes = 64 * 1024
    public static let titleBytes = 4 * 1024
    public static let usernameBytes = 4 * 1024
    /// One service identifier as typed (a long URL fits; a pasted document does not).
    public static let serviceBytes = 4 * 1024
    public static let servicesPerCredential = 256
    /// Named fields of one credential (format 1.3): a bound like the services', far above any real item.
    public static let fieldsPerCredential = 256
    public static let notesBytes = 256 * 1024
    /// The encrypted payload of a vault file: some 100,000 ordinary credentials with history.
    public static let vaultPayloadBytes = 128 * 1024 * 1024

    /// One agent message: at worst the whole vault's text as JSON, where a control character
    /// escapes to six bytes, plus room for the message's own fields.
    public static let agentMessageBytes = 6 * vaultPayloadBytes + 64 * 1024
    /// One request from git: a password and a handful of attributes (url, path, wwwauth[]...).
    public static let gitRequestBytes = secretBytes + 8 * serviceBytes + 64 * 1024

    /// Refuses a credential with a field over its limit, naming the field.
    public static func check(_ credential: Credential) throws {
        try refuseControlCharacters("title", credential.title)
        try refuseControlCharacters("username", credential.username)
        try check("title", credential.title.utf8.count, titleBytes)
        try check("username", credential.username.utf8.count, usernameBytes)
        try check("notes", credential.notes.utf8.count, notesBytes)
        guard credential.services.count <= servicesPerCredential else {
            throw VaultError.invalidRequest(
                "a credential may have at most \(servicesPerCredential) services (this one would have \(credential.services.count))"
            )
        }
        for service in credential.services {
            try check("service '\(service.text.prefix(60))…'", service.text.utf8.count, serviceBytes)
        }
        guard credential.fields.count <= fieldsPerCredential else {
            throw VaultError.invalidRequest(
                "a credential may have at most \(fieldsPerCredential) fields (this one would have \(credential.fields.count))"
            )
        }
        for field in credential.fields {
            guard !field.name.trimmingSpacesAndNewlines().isEmpty else {
                throw VaultError.invalidRequest("a field needs a name")
            }
            try refuseControlCharacters("field name", field.name)
            try check("field name", field.name.utf8.count, titleBytes)
            if let text = field.text { try check("field '\(field.name.prefix(40))'", text.utf8.count, notesBytes) }
            if let secret = field.secret { try check("field '\(field.name.prefix(40))'", secret.count, secretBytes) }
        }
    }

    /// Refuses a secret over the limit.
    public static func checkSecret(byteCount: Int) throws {
        try check("password", byteCount, secretBytes)
    }

    /// Titles and usernames are one line of printable text: a control character in them is a
    /// paste gone wrong or an attack on whoever lists them (ESC sequences reach the terminal).
    private static func refuseControlCharacters(_ field: String, _ text: String) throws {
        guard let control = text.unicodeScalars.first(where: { $0.properties.generalCategory == .control }) else {
            return
        }
        let code = String(control.value, radix: 16, uppercase: true)
        let padded = String(repeating: "0", count: max(0, 4 - code.count)) + code
        throw VaultError.invalidRequest(
            "the \(field) contains a control character (U+\(padded)); titles and usernames are one line of printable text"
        )
    }

    private static func check(_ field: String, _ count: Int, _ limit: Int) throws {
        guard count > limit else { return }
        throw VaultError.invalidRequest("the \(field) is \(count) bytes, over pwtui's limit of \(limit) bytes")
    }
}
