/// A secret named for a script: `pwtui://NAME[/FIELD]`, in an environment value (`pwtui run`) or
/// a template (`pwtui inject`). The grammar (docs/run.md):
///
///     reference := "pwtui://" name [ "/" field ]
///     name      := a credential's id (or a prefix of it, 4 characters or more), a service
///                  (`github.com`, `registry.example:5000`: by host, as `rm` names one) or a title
///     field     := "password" (the default) | "username" | "totp" | a named field's name
///
/// Both parts are percent-decoded after the split, so a title with a slash is `a%2Fb`; spaces
/// may be written as they are or as `%20`. A reference names one credential: when several
/// have that name, it is refused with their ids (a script must not get one by guess).
public struct SecretURI: Hashable, Sendable, CustomStringConvertible {
    public static let scheme = "pwtui://"

    public let name: String
    public let field: CredentialField
    /// As written, for messages (a reference holds no secret).
    public let description: String
    /// With a field part: the name and the field rejoined by their slash (`work/db`), what was
    /// meant when a title has a slash and the `%2F` was forgotten (issue 38).
    public let slashedName: String?

    /// Nil when `text` does not start with the scheme: not a reference at all (an environment
    /// value left as it is). A malformed one throws.
    public init?(_ text: String) throws {
        guard text.hasPrefix(Self.scheme) else { return nil }
        description = text
        let rest = text.dropFirst(Self.scheme.count)
        let parts = rest.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        name = try Self.decoded(parts[0], in: text)
        guard !name.trimmingCharacters(in: " ").isEmpty else {
            throw VaultError.invalidRequest("\(text): no credential named after pwtui:// (\(Self.form))")
        }
        guard parts.count == 2 else {
            field = .password
            slashedName = nil
            return
        }
        let fieldName = try Self.decoded(parts[1], in: text)
        slashedName = name + "/" + fieldName
        if parts[1].contains("/") {
            throw VaultError.invalidRequest("\(text): more than one '/' after the name (\(Self.form); %2F for a slash)")
        }
        switch fieldName {
        case "", "password": field = .password
        case "username": field = .username
        case "totp": field = .totp
        case "both", "json":
            throw VaultError.invalidRequest(
                "\(text): a reference names one value; '\(fieldName)' is several (\(Self.form))")
        default: field = .named(fieldName)
        }
    }

    static let form = "pwtui://SERVICE-OR-TITLE[/FIELD], FIELD: password, username, totp or a field's name"

    private static func decoded(_ part: Substring, in text: String) throws -> String {
        var bytes: [UInt8] = []
        var utf8 = Array(part.utf8)[...]
        while let byte = utf8.popFirst() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard utf8.count >= 2, let high = hexValue(utf8.removeFirst()), let low = hexValue(utf8.removeFirst())
            else {
                throw VaultError.invalidRequest("\(text): '%' starts no %XX escape (write %25 for a '%')")
            }
            bytes.append(high << 4 | low)
        }
        guard let decoded = String(validating: bytes, as: UTF8.self) else {
            throw VaultError.invalidRequest("\(text): its %XX escapes are not UTF-8")
        }
        return decoded
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0") ... UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a") ... UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A") ... UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}

extension String {
    fileprivate func trimmingCharacters(in set: Character) -> Substring {
        var text = Substring(self)
        while text.first == set { text = text.dropFirst() }
        while text.last == set { text = text.dropLast() }
        return text
    }
}
