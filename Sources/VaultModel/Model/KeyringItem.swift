import FoundationEssentials
import Platform
import UnicodeText
import VaultCrypto

/// How a Secret Service item (issue 40: what Chromium, `keyring`, `secret-tool` store through
/// `org.freedesktop.secrets`) is kept as a vault item (`ItemKind.keyring`): an ordinary
/// credential, so that history, sync, merge, export, `list` and `show` carry it with nothing of
/// their own, as they carry an SSH key (`SSHKeyItem`).
///
/// - The title is the item's label when a title can be it; otherwise (no label: a vault item
///   needs a name to be found by; a control character, which no title holds; longer than a
///   title) the title is `title(for:)`, printable, and the label itself is kept in the text field
///   `keyring label`, given back exactly (keyring names its items "Password for 'USER' on
///   'SERVICE'", tabs and all).
/// - No services and no username: no `get URL`, git request or picker search for a site ever
///   matches it. A program finds it by its attributes.
/// - Text fields: one per attribute, named `attribute NAME`, its value the attribute's; and
///   `keyring creator`, the program that stored it (its executable's name, as the bus daemon's
///   credentials show it), `keyring confirm`, when a read asks the user first (`ConfirmPolicy`),
///   and `keyring content type` when it is not `text/plain`.
/// - The secret is the stored bytes when they are UTF-8 text without a NUL; other bytes are
///   kept as hex digits with the field `keyring encoding` = `hex` (`SecretHex`), so that export
///   and `show --reveal` never write raw bytes.
/// - Its id on the bus is the credential's UUID as 32 lowercase hex digits: one object-path
///   element, stable across restarts.
public enum KeyringItem {
    public static let attributePrefix = "attribute "
    public static let creatorField = "keyring creator"
    public static let confirmField = "keyring confirm"
    public static let contentTypeField = "keyring content type"
    public static let encodingField = "keyring encoding"
    public static let labelField = "keyring label"
    public static let untitledLabel = "Untitled keyring item"
    public static let defaultContentType = "text/plain"

    /// At most this many attributes, each name and value at most `attributeBytes`.
    public static let maximumAttributes = 64
    public static let attributeBytes = 4 * 1024

    /// When a program's read of an item asks the user first (`echo other | pwtui edit ID --field
    /// "keyring confirm" --text`).
    public enum ConfirmPolicy: String, CaseIterable, Sendable, Codable {
        /// Never asked (the default): as every keyring does.
        case never
        /// Asked when the reader is not the program that stored the item: a script cannot quietly
        /// take Chromium's key, and Chromium reads its own without a question.
        case other
        /// Asked for every read.
        case each
    }

    /// In every refusal of a read (the user said no), also when it comes back from the agent.
    public static let refusalPhrase = "was not given to"

    /// Whether `message` (an agent's refusal) refuses a read rather than naming no item: the
    /// user's no, or an item bound to other programs.
    public static func isRefusal(_ message: String) -> Bool {
        message.contains(refusalPhrase) || WithheldCredential.describes(message)
    }

    /// The bus id of `credential`.
    public static func id(of credential: Credential) -> String {
        id(of: credential.id)
    }

    /// The bus id of the credential `id`.
    public static func id(of id: UUID) -> String {
        String(id.uuidString.lowercased().filter { $0 != "-" })
    }

    /// The credential id (a UUID's text) that bus id `id` stands for; nil for anything else.
    public static func credentialID(_ id: String) -> String? {
        let hex = Array(id.lowercased().utf8)
        guard hex.count == 32, hex.allSatisfy({ (48 ... 57).contains($0) || (97 ... 102).contains($0) }) else {
            return nil
        }
        let text = String(decoding: hex, as: UTF8.self)
        let cuts = [8, 12, 16, 20]
        var parts: [Substring] = []
        var start = text.startIndex
        for cut in cuts {
            let end = text.index(text.startIndex, offsetBy: cut)
            parts.append(text[start ..< end])
            start = end
        }
        parts.append(text[start...])
        return parts.joined(separator: "-")
    }

    /// Its attributes, from its `attribute NAME` fields.
    public static func attributes(of credential: Credential) -> [String: String] {
        var attributes: [String: String] = [:]
        for field in credential.fields where field.name.hasPrefix(attributePrefix) {
            if let text = field.text { attributes[String(field.name.dropFirst(attributePrefix.count))] = text }
        }
        return attributes
    }

    /// The fields that hold `attributes`, as `matches` compares them: made once for a look at
    /// every item.
    public static func attributeFields(_ attributes: [String: String]) -> [(name: String, text: String)] {
        attributes.map { (name: attributePrefix + $0.key, text: $0.value) }
    }

    /// Whether `credential` is a keyring item whose attributes include every pair of `query`
    /// (`attributeFields`): compared where they lie, with no item's attributes gathered (a search
    /// of 300 items spent a third of its time building their dictionaries).
    public static func matches(_ credential: Credential, fields query: [(name: String, text: String)]) -> Bool {
        guard credential.kind == .keyring else { return false }
        return query.allSatisfy { pair in credential.fields.contains { $0.name == pair.name && $0.text == pair.text } }
    }

    /// Whether `credential`'s attributes are exactly `query`'s, no more: the item a replacing
    /// create replaces.
    public static func matchesExactly(_ credential: Credential, fields query: [(name: String, text: String)]) -> Bool {
        matches(credential, fields: query)
            && credential.fields.count(where: { $0.name.hasPrefix(attributePrefix) }) == query.count
    }

    /// The title an item labelled `label` is listed under: the label itself when a title may
    /// be it, else made printable (`PrintableText`) and cut to a title's bound.
    public static func title(for label: String) -> String {
        guard !label.trimmingSpacesAndNewlines().isEmpty else { return untitledLabel }
        var title = PrintableText.escaped(label)
        while title.utf8.count > Limits.titleBytes { title.removeLast() }
        return title
    }

    /// The label a program gave the item, exactly.
    public static func label(of credential: Credential) -> String {
        credential.field(named: labelField)?.text ?? credential.title
    }

    public static func creator(of credential: Credential) -> String? {
        credential.field(named: creatorField)?.text
    }

    public static func contentType(of credential: Credential) -> String {
        credential.field(named: contentTypeField)?.text ?? defaultContentType
    }

    /// Its policy; `never` when the field is missing or not one pwtui knows.
    public static func confirmPolicy(of credential: Credential) -> ConfirmPolicy {
        credential.field(named: confirmField)?.text.flatMap(ConfirmPolicy.init(rawValue:)) ?? .never
    }

    /// Whether its secret is kept as hex digits.
    static func isHex(_ credential: Credential) -> Bool {
        credential.field(named: encodingField)?.text == "hex"
    }

    /// Attributes as a program gives them, checked: a bounded count and size, and no two names
    /// that differ only in case (a field's name is found without case).
    public static func check(_ attributes: [String: String]) throws {
        guard attributes.count <= maximumAttributes else {
            throw VaultError.invalidRequest(
                "a keyring item may have at most \(maximumAttributes) attributes (this one has \(attributes.count))")
        }
        for (name, value) in attributes
        where name.isEmpty || name.utf8.count > attributeBytes || value.utf8.count > attributeBytes {
            throw VaultError.invalidRequest(
                "an attribute needs a name, and its name and value at most \(attributeBytes) bytes each ('\(name.prefix(60))')"
            )
        }
        guard Set(attributes.keys.map { $0.lowercased() }).count == attributes.count else {
            throw VaultError.invalidRequest("two attributes have names that differ only in case; pwtui keeps one")
        }
    }

    /// Whether `secret` is kept as hex digits: it is not UTF-8 text without a NUL.
    static func needsHex(_ secret: borrowing SecureBytes) -> Bool {
        secret.withUnsafeBytes { bytes in bytes.contains(0) || !isUTF8(bytes) }
    }

    /// `secret` as it is stored: itself, or (`hex`) as hex digits.
    static func stored(_ secret: borrowing SecureBytes, hex: Bool) throws -> SecureBytes {
        try secret.withUnsafeBytes { bytes in hex ? try SecretHex.encode(bytes) : try SecureBytes(copying: bytes) }
    }

    /// The bytes a program stored as `credential`'s secret, in protected memory.
    public static func secret(of credential: Credential, in contents: VaultContents) throws -> SecureBytes {
        try contents.secrets.withBytes(of: credential.secret) { text in
            guard isHex(credential) else { return try SecureBytes(copying: text) }
            guard let bytes = try SecretHex.decode(text) else {
                throw VaultError.invalidRequest(
                    "the secret of \(credential.displayTitle) should be hex digits (its \(encodingField) says so) and is not"
                )
            }
            return bytes
        }
    }

    /// Whether `bytes` are well-formed UTF-8 (no overlong form, surrogate or value past U+10FFFF).
    static func isUTF8(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var index = 0
        while index < bytes.count {
            let lead = bytes[index]
            let length: Int
            let minimum: UInt32
            switch lead {
            case 0x00 ... 0x7F:
                index += 1
                continue
            case 0xC2 ... 0xDF: (length, minimum) = (2, 0x80)
            case 0xE0 ... 0xEF: (length, minimum) = (3, 0x800)
            case 0xF0 ... 0xF4: (length, minimum) = (4, 0x10000)
            default: return false
            }
            guard index + length <= bytes.count else { return false }
            var value = UInt32(lead) & (0xFF >> (length + 1))
            for offset in 1 ..< length {
                let next = bytes[index + offset]
                guard next & 0xC0 == 0x80 else { return false }
                value = value << 6 | UInt32(next & 0x3F)
            }
            guard value >= minimum, value <= 0x10FFFF, !(0xD800 ... 0xDFFF).contains(value) else { return false }
            index += length
        }
        return true
    }
}
