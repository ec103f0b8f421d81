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
        guard !text.isEmpty else { throw VaultError.invalidRequest("a service must not be empty") }
        // Byte-wise, with no copy for the usual ASCII text: a vault of 100,000 credentials
        // parses every stored service on open, and Character-wise scanning costs ten times as
        // much. Non-ASCII text takes a slow path for Unicode whitespace and lowercasing.
        var isASCII = true
        var hasUpper = false
        for byte in text.utf8 {
            if byte <= 0x20 || byte == 0x7F {
                throw VaultError.invalidRequest("service '\(text)' contains \(byte == 0x20 ? "a space" : "a control character")")
            }
            if byte >= 0x80 { isASCII = false }
            if byte >= 0x41, byte <= 0x5A { hasUpper = true }
        }
        if !isASCII, text.unicodeScalars.contains(where: { $0.properties.isWhitespace }) {
            throw VaultError.invalidRequest("service '\(text)' contains a space character")
        }
        var normalized = isASCII ? text : text.lowercased()
        let parsed = normalized.withUTF8 { Self.locateHost(in: $0, lowercasing: isASCII && hasUpper) }
        guard let parsed else { throw VaultError.invalidRequest("service '\(text)' has no usable host") }
        self.text = text
        self.host = parsed.host
        self.isWildcard = parsed.wildcard
    }

    /// Finds the host in `[webcredentials:][scheme://][user@](*.)host[.][:port][/path?query#fragment]`.
    private static func locateHost(in bytes: UnsafeBufferPointer<UInt8>, lowercasing: Bool) -> (host: String, wildcard: Bool)? {
        var start = 0
        var end = bytes.count
        func hasPrefix(_ prefix: StaticString, at index: Int) -> Bool {
            let count = prefix.utf8CodeUnitCount
            guard index + count <= end else { return false }
            for offset in 0 ..< count where bytes[index + offset] | (lowercasing ? 0x20 : 0) != prefix.utf8Start[offset] {
                return false
            }
            return true
        }
        if hasPrefix("webcredentials:", at: start) { start += 15 }
        var index = start
        while index + 3 <= end {
            if hasPrefix("://", at: index) {
                start = index + 3
                break
            }
            index += 1
        }
        if let pathStart = (start ..< end).first(where: { bytes[$0] == 0x2F || bytes[$0] == 0x3F || bytes[$0] == 0x23 }) {
            end = pathStart  // / ? #
        }
        if let at = (start ..< end).last(where: { bytes[$0] == 0x40 }) { start = at + 1 }  // user@
        if start < end, bytes[start] == 0x5B {  // [IPv6]: the port, if any, follows the bracket
            if let close = (start ..< end).first(where: { bytes[$0] == 0x5D }) { end = close + 1 }
        } else if let colon = (start ..< end).last(where: { bytes[$0] == 0x3A }) {
            end = colon
        }
        let wildcard = hasPrefix("*.", at: start)
        if wildcard { start += 2 }
        if end > start, bytes[end - 1] == 0x2E { end -= 1 }  // trailing dot
        guard start < end, !bytes[start ..< end].contains(0x2A) else { return nil }
        let host = UnsafeBufferPointer(rebasing: bytes[start ..< end])
        guard lowercasing else { return (String(decoding: host, as: UTF8.self), wildcard) }
        return (String(unsafeUninitializedCapacity: host.count) { output in
            for (offset, byte) in host.enumerated() { output[offset] = byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte }
            return host.count
        }, wildcard)
    }

    public var description: String { text }
}
