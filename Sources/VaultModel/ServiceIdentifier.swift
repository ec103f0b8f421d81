/// What a credential is for: a domain (`github.com`), a URL (`https://github.com:8443/login`) or
/// an associated-domain entry (`webcredentials:*.example.com:8443`).
///
/// The text is kept exactly as typed, so that nothing the user wrote is lost; `host` is the
/// lowercased host that matching compares. Full parsing (IDN, ports, schemes, paths) and the
/// ranking tiers of DESIGN §5 belong to the ranking work; this type already rejects what can
/// never be a service.
public struct ServiceIdentifier: Hashable, Sendable, CustomStringConvertible {
    public let text: String
    /// Lowercased, without scheme, user info, port, path or trailing dot.
    public let host: String
    /// `*.example.com`: any strict subdomain of `host`.
    public let isWildcard: Bool

    public init(_ text: String) throws {
        let trimmed = text
        guard !trimmed.isEmpty else { throw VaultError.invalidRequest("a service must not be empty") }
        if let bad = trimmed.unicodeScalars.first(where: { $0.properties.isWhitespace || $0.value < 0x20 }) {
            throw VaultError.invalidRequest("service '\(text)' contains \(bad.value == 0x20 ? "a space" : "a control or space character")")
        }
        var rest = Substring(trimmed.lowercased())
        if rest.hasPrefix("webcredentials:") { rest = rest.dropFirst("webcredentials:".count) }
        if let schemeEnd = rest.range(of: "://") { rest = rest[schemeEnd.upperBound...] }
        if let pathStart = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) {
            rest = rest[..<pathStart]
        }
        if let at = rest.lastIndex(of: "@") { rest = rest[rest.index(after: at)...] }
        if rest.hasPrefix("[") {
            // Bracketed IPv6: the port, if any, follows the closing bracket.
            if let close = rest.firstIndex(of: "]") { rest = rest[...close] }
        } else if let colon = rest.lastIndex(of: ":") {
            rest = rest[..<colon]
        }
        var wildcard = false
        if rest.hasPrefix("*.") {
            wildcard = true
            rest = rest.dropFirst(2)
        }
        if rest.hasSuffix(".") { rest = rest.dropLast() }
        guard !rest.isEmpty, !rest.contains("*") else {
            throw VaultError.invalidRequest("service '\(text)' has no usable host")
        }
        self.text = text
        self.host = String(rest)
        self.isWildcard = wildcard
    }

    public var description: String { text }
}
