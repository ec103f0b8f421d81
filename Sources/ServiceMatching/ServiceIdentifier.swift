import FoundationEssentials
import UnicodeText

/// What a credential is for, or what a request asks for, in one of three forms:
///
///     github.com, *.example.com:8443                      a domain (optionally wildcard, port)
///     https://github.com:8443/login?x=1#y                 a URL: any scheme with a host
///     ssh://build.example, sftp://files.example:2222/home  (ssh, sftp, smb, rdp, ldap, imap …)
///     webcredentials:*.example.com:8443                   an associated-domain entry
///
/// A URL of any scheme that names a host is a service (issue 38): KeePassXC and Bitwarden keep
/// `sftp://` and `smb://` addresses, and askpass, the picker and `list` find them by their host
/// and port like a web address (`ServiceMatch`). Schemes pwtui knows have their default port
/// (`ssh` 22, `smb` 445, …); a scheme it does not know has none, so its services match only the
/// same scheme or a request for the bare host.
///
/// `text` is kept exactly as typed (nothing the user wrote is lost); the other fields are the
/// normalised parts that matching compares: a lowercased ASCII host (IDN labels in `xn--` form,
/// no trailing dot), the scheme, a port only when it is not the scheme's default, and for URLs
/// the path without query or fragment. IPv4 addresses, bracketed IPv6 addresses and single-label
/// hosts (`localhost`) are plain hosts: no wildcard, no parent domains, no public-suffix logic.
///
/// Parsing is byte-wise and copies nothing for ASCII text: a vault of 100,000 credentials parses
/// every stored service when it opens.
public struct ServiceIdentifier: Hashable, Sendable, CustomStringConvertible {
    /// `app`: a mobile app's link (format 1.3): `android://CERT-HASH@package/` as Chrome writes it,
    /// `androidapp://package` as Bitwarden does, `iosapp://bundle-id`. Its host is the package or
    /// bundle id; it matches only a request for the same app (`ServiceMatch`), never a web host.
    public enum Form: Sendable { case domain, url, associatedDomain, app }
    public enum HostKind: Sendable { case name, ipv4, ipv6 }

    /// A URL's scheme, lowercased. Not an enum: any scheme with a host is a service.
    public struct Scheme: Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        /// The port a connection uses when the URL names none, for the schemes people store
        /// (IANA's assignments); nil for a scheme pwtui does not know. Looked up once, as the
        /// scheme is read: ranking asks for the port of every stored service it compares
        /// (`ServiceMatch`), and a lookup in the table each time was most of that.
        public let defaultPort: UInt16?
        /// http and https: one web origin family, where an http credential may be offered to https.
        public let isWeb: Bool

        public init(_ name: String) {
            rawValue = name.lowercased()
            defaultPort = Self.defaultPorts[rawValue]
            isWeb = rawValue == "http" || rawValue == "https"
        }

        public static let http = Scheme("http")
        public static let https = Scheme("https")

        public var description: String { rawValue }

        private static let defaultPorts: [String: UInt16] = [
            "http": 80, "https": 443, "ws": 80, "wss": 443, "ftp": 21, "ftps": 990, "sftp": 22, "ssh": 22,
            "scp": 22, "telnet": 23, "smtp": 25, "smtps": 465, "submission": 587, "pop3": 110, "pop3s": 995,
            "imap": 143, "imaps": 993, "ldap": 389, "ldaps": 636, "smb": 445, "cifs": 445, "afp": 548,
            "nfs": 2049, "rdp": 3389, "vnc": 5900, "rsync": 873, "git": 9418, "svn": 3690, "xmpp": 5222,
            "irc": 6667, "ircs": 6697, "mqtt": 1883, "mqtts": 8883, "postgres": 5432, "postgresql": 5432,
            "mysql": 3306, "mariadb": 3306, "redis": 6379, "rediss": 6379, "mongodb": 27017, "amqp": 5672,
            "amqps": 5671, "webdav": 80, "webdavs": 443, "davs": 443, "dav": 80, "sip": 5060, "sips": 5061,
        ]
    }

    public let text: String
    public let form: Form
    public let scheme: Scheme?
    public let host: String
    public let hostKind: HostKind
    /// An explicit port that differs from the scheme's default.
    public let port: UInt16?
    /// URLs only: the path, "/" at least.
    public let path: String?
    /// `*.example.com`: any strict subdomain of `host`, not `host` itself.
    public let isWildcard: Bool

    /// For an app link, the platform it is for ("android" or "ios"); nil for anything else.
    public var appPlatform: String? {
        guard form == .app else { return nil }
        return text.lowercased().hasPrefix("iosapp:") ? "ios" : "android"
    }

    /// The port a connection would use: the explicit one, else the scheme's default.
    public var effectivePort: UInt16? { port ?? scheme?.defaultPort }

    /// A name with a single label (`localhost`, `intranet`). Stored: ranking asks for it per pair.
    public let isSingleLabel: Bool

    public var description: String { text }

    /// A service as the user typed it. A URL's userinfo (`https://alice:hunter2@host`) is
    /// refused, not dropped: it is where people paste passwords, and whatever is kept here ends up
    /// in titles, the identity store and `suggest`. The message never repeats it.
    public init(_ text: String) throws(InvalidServiceIdentifier) {
        let parts = try Self.parse(text)
        if let userinfo = parts.userinfo {
            let redacted = Self.replacing(userinfo, in: text, with: "…@")
            throw InvalidServiceIdentifier(
                "invalid service '\(redacted)': a URL must not carry a user name or password before '@'; "
                    + "give the account with --username, and a password never belongs in a URL")
        }
        self.init(text: text, parts: parts)
    }

    /// A service read back from a vault or the identity store. Versions before userinfo was
    /// refused could store it; it is dropped here, so the next save no longer holds it.
    public init(stored text: String) throws(InvalidServiceIdentifier) {
        let parts = try Self.parse(text)
        guard let userinfo = parts.userinfo else {
            self.init(text: text, parts: parts)
            return
        }
        let cleaned = Self.replacing(userinfo, in: text, with: "")
        self.init(text: cleaned, parts: try Self.parse(cleaned))
    }

    /// `text` with the UTF-8 byte range `range` replaced.
    private static func replacing(_ range: Range<Int>, in text: String, with replacement: String) -> String {
        String(decoding: text.utf8.prefix(range.lowerBound), as: UTF8.self) + replacement
            + String(decoding: text.utf8.dropFirst(range.upperBound), as: UTF8.self)
    }

    private static func parse(_ text: String) throws(InvalidServiceIdentifier) -> Parts {
        var utf8 = text
        switch utf8.withUTF8({ Parser(text: text, bytes: $0).parse() }) {
        case .failure(let problem):
            let shown = problem.hidesText ? "the service" : "'\(text)'"
            throw InvalidServiceIdentifier("invalid service \(shown): \(problem.message)")
        case .success(let parts):
            return parts
        }
    }

    private init(text: String, parts: Parts) {
        self.text = text
        form = parts.form
        scheme = parts.scheme
        host = parts.host
        hostKind = parts.hostKind
        port = parts.port
        path = parts.path
        isWildcard = parts.isWildcard
        isSingleLabel = parts.hostKind == .name && !parts.host.utf8.contains(0x2E)
    }

    /// Two identifiers are equal when they name the same thing, however they were written.
    public static func == (a: ServiceIdentifier, b: ServiceIdentifier) -> Bool {
        a.form == b.form && a.scheme == b.scheme && a.host == b.host && a.port == b.port
            && a.path == b.path && a.isWildcard == b.isWildcard && a.appPlatform == b.appPlatform
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(host)
        hasher.combine(port)
        hasher.combine(path)
        hasher.combine(isWildcard)
    }
}

private struct Problem: Error {
    let message: String
    /// The text may hold a secret (a URL's userinfo): the message must not quote it.
    var hidesText = false
}

/// Result without its generic error parameter: `Result<_, Problem>` asks the runtime for generic
/// metadata on every parse, which showed up in the profile of opening a large vault.
private enum Outcome<Value> {
    case success(Value)
    case failure(Problem)
}

private struct Parts {
    var form: ServiceIdentifier.Form
    var scheme: ServiceIdentifier.Scheme?
    var host: String
    var hostKind: ServiceIdentifier.HostKind
    var port: UInt16?
    var path: String?
    var isWildcard: Bool
    /// Byte offsets of `user[:password]@`, '@' included, when a URL has one.
    var userinfo: Range<Int>?
}

/// One pass over the UTF-8 bytes of a service.
private struct Parser {
    let text: String
    let bytes: UnsafeBufferPointer<UInt8>

    func slice(_ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    func hasPrefix(_ prefix: StaticString, at index: Int, end: Int, caseInsensitive: Bool = false) -> Bool {
        let count = prefix.utf8CodeUnitCount
        guard index + count <= end else { return false }
        for offset in 0 ..< count {
            var byte = bytes[index + offset]
            if caseInsensitive, byte >= 0x41, byte <= 0x5A { byte |= 0x20 }
            if byte != prefix.utf8Start[offset] { return false }
        }
        return true
    }

    func firstIndex(in range: Range<Int>, where test: (UInt8) -> Bool) -> Int? {
        var index = range.lowerBound
        while index < range.upperBound {
            if test(bytes[index]) { return index }
            index += 1
        }
        return nil
    }

    func lastIndex(in range: Range<Int>, of byte: UInt8) -> Int? {
        var index = range.upperBound - 1
        while index >= range.lowerBound {
            if bytes[index] == byte { return index }
            index -= 1
        }
        return nil
    }

    func parse() -> Outcome<Parts> {
        guard !bytes.isEmpty else { return .failure(Problem(message: "it is empty")) }
        var isASCII = true
        for byte in bytes {
            if byte == 0x20 { return .failure(Problem(message: "it contains a space")) }
            if byte < 0x20 || byte == 0x7F { return .failure(Problem(message: "it contains a control character")) }
            if byte >= 0x80 { isASCII = false }
        }
        if !isASCII, text.unicodeScalars.contains(where: { $0.properties.isWhitespace }) {
            return .failure(Problem(message: "it contains a space character"))
        }

        var start = 0
        var end = bytes.count
        var form = ServiceIdentifier.Form.domain
        var scheme: ServiceIdentifier.Scheme?
        for prefix: StaticString in ["android://", "androidapp://", "iosapp://"]
        where hasPrefix(prefix, at: 0, end: end, caseInsensitive: true) {
            return parseApp(after: prefix.utf8CodeUnitCount)
        }
        if hasPrefix("webcredentials:", at: 0, end: end, caseInsensitive: true) {
            form = .associatedDomain
            start = 15
        } else if let separator = firstIndex(in: 0 ..< end, where: { $0 == 0x3A }),
            hasPrefix("://", at: separator, end: end)
        {
            // RFC 3986: ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ).
            let isSchemeByte = { (byte: UInt8) in
                (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39)
                    || byte == 0x2B || byte == 0x2D || byte == 0x2E
            }
            let isLetter = { (byte: UInt8) in (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) }
            guard separator > 0, isLetter(bytes[0]),
                firstIndex(in: 0 ..< separator, where: { !isSchemeByte($0) }) == nil
            else {
                return .failure(
                    Problem(
                        message:
                            "'\(slice(0 ..< separator))' is not a URL scheme (a letter, then letters, digits, +, - or .)"
                    ))
            }
            form = .url
            scheme =
                separator == 5 && hasPrefix("https", at: 0, end: 5, caseInsensitive: true)
                ? .https
                : separator == 4 && hasPrefix("http", at: 0, end: 4, caseInsensitive: true)
                    ? .http : ServiceIdentifier.Scheme(slice(0 ..< separator))
            start = separator + 3
        }

        // The path, for URLs; other forms have none.
        var path: String?
        if let pathStart = firstIndex(in: start ..< end, where: { $0 == 0x2F || $0 == 0x3F || $0 == 0x23 }) {
            guard form == .url else {
                return .failure(
                    Problem(message: "'\(slice(pathStart ..< end))' is a path: give a URL (https://…) to name one"))
            }
            let pathEnd = firstIndex(in: pathStart ..< end, where: { $0 == 0x3F || $0 == 0x23 }) ?? end
            path = bytes[pathStart] == 0x2F ? slice(pathStart ..< pathEnd) : "/"
            end = pathStart
        } else if form == .url {
            path = "/"
        }
        var userinfo: Range<Int>?
        if form == .url, let at = lastIndex(in: start ..< end, of: 0x40) {  // user[:password]@
            userinfo = start ..< at + 1
            start = at + 1
        } else if firstIndex(in: start ..< end, where: { $0 == 0x40 }) != nil {
            return .failure(
                Problem(message: "'@' is not allowed in a host name (a user name goes in --username)", hidesText: true))
        }

        // host[:port], or [v6][:port]
        var hostEnd = end
        var portText: Range<Int>?
        if start < end, bytes[start] == 0x5B {
            guard let close = firstIndex(in: start ..< end, where: { $0 == 0x5D }) else {
                return .failure(Problem(message: "'\(slice(start ..< end))' opens '[' without closing it"))
            }
            hostEnd = close + 1
            if hostEnd < end {
                guard bytes[hostEnd] == 0x3A else {
                    return .failure(Problem(message: "unexpected '\(slice(hostEnd ..< end))' after the address"))
                }
                portText = hostEnd + 1 ..< end
            }
        } else if let colon = lastIndex(in: start ..< end, of: 0x3A) {
            if firstIndex(in: start ..< colon, where: { $0 == 0x3A }) != nil {
                return .failure(Problem(message: "an IPv6 address must be in brackets, as in [::1]:8080"))
            }
            hostEnd = colon
            portText = colon + 1 ..< end
        }
        var port: UInt16?
        if let portText {
            let digits = slice(portText)
            guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
                return .failure(Problem(message: "port '\(digits)' is not a number"))
            }
            guard digits.utf8.count <= 5, let value = Int(digits), value >= 1, value <= 65535 else {
                return .failure(Problem(message: "port '\(digits)' is out of range (1–65535)"))
            }
            port = UInt16(value)
        }
        if let given = port, given == scheme?.defaultPort { port = nil }

        var hostStart = start
        let isWildcard = hasPrefix("*.", at: hostStart, end: hostEnd)
        if isWildcard { hostStart += 2 }
        if firstIndex(in: hostStart ..< hostEnd, where: { $0 == 0x2A }) != nil {
            return .failure(Problem(message: "'*' may only begin a service, as '*.' ('\(slice(start ..< hostEnd))')"))
        }
        if hostEnd > hostStart, bytes[hostEnd - 1] == 0x2E { hostEnd -= 1 }  // trailing dot
        guard hostStart < hostEnd else { return .failure(Problem(message: "it names no host")) }

        let host: String
        let hostKind: ServiceIdentifier.HostKind
        switch classify(hostStart ..< hostEnd) {
        case .failure(let problem): return .failure(problem)
        case .success(let classified): (host, hostKind) = classified
        }
        if isWildcard {
            guard hostKind == .name else { return .failure(Problem(message: "an address cannot have a wildcard")) }
            guard host.utf8.contains(0x2E) else {
                return .failure(Problem(message: "'*.\(host)' would cover a whole top-level domain"))
            }
        }
        return .success(
            Parts(
                form: form, scheme: scheme, host: host, hostKind: hostKind, port: port,
                path: path, isWildcard: isWildcard, userinfo: userinfo))
    }

    /// An app link after its scheme: Chrome's `CERT-HASH@` (kept in the text, not a user name:
    /// the app's public signing-certificate hash), the package or bundle id, an optional '/'.
    func parseApp(after schemeEnd: Int) -> Outcome<Parts> {
        var start = schemeEnd
        var end = bytes.count
        if end > start, bytes[end - 1] == 0x2F { end -= 1 }
        if let at = lastIndex(in: start ..< end, of: 0x40) { start = at + 1 }
        guard start < end else { return .failure(Problem(message: "an app link names no app")) }
        let isPackageByte = { (byte: UInt8) in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == 0x2E || byte == 0x5F || byte == 0x2D
        }
        guard firstIndex(in: start ..< end, where: { !isPackageByte($0) }) == nil else {
            return .failure(Problem(message: "'\(slice(start ..< end))' is not an app's package or bundle id"))
        }
        return .success(
            Parts(
                form: .app, scheme: nil, host: slice(start ..< end).lowercased(), hostKind: .name, port: nil,
                path: nil, isWildcard: false, userinfo: nil))
    }

    /// The normalised host and its kind, in one pass over the bytes for the usual ASCII name.
    func classify(_ range: Range<Int>) -> Outcome<(String, ServiceIdentifier.HostKind)> {
        if bytes[range.lowerBound] == 0x5B {
            // The caller checks the brackets only where a host begins, not after "*." (found by
            // the fuzzer: "*.[" trapped).
            guard range.count >= 2, bytes[range.upperBound - 1] == 0x5D else {
                return .failure(Problem(message: "'\(slice(range))' opens '[' without closing it"))
            }
            let inside = slice(range.lowerBound + 1 ..< range.upperBound - 1).lowercased()
            guard inside.contains(":"),
                inside.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x3A) || ($0 >= 0x61 && $0 <= 0x66) || $0 == 0x2E })
            else {
                return .failure(Problem(message: "'\(slice(range))' is not an IPv6 address"))
            }
            return .success(("[" + inside + "]", .ipv6))
        }
        var onlyDigitsAndDots = true, hasUpper = false, isASCII = true, valid = true
        var labelLength = 0, longestLabel = 0, emptyLabel = false
        for index in range {
            let byte = bytes[index]
            if byte == 0x2E {
                emptyLabel = emptyLabel || labelLength == 0
                labelLength = 0
                continue
            }
            labelLength += 1
            longestLabel = max(longestLabel, labelLength)
            if byte >= 0x80 { isASCII = false; continue }
            if byte < 0x30 || byte > 0x39 { onlyDigitsAndDots = false }
            if byte >= 0x41, byte <= 0x5A { hasUpper = true; continue }
            let allowed =
                (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39) || byte == 0x2D || byte == 0x5F
            valid = valid && allowed
        }
        emptyLabel = emptyLabel || labelLength == 0
        let raw = slice(range)
        if onlyDigitsAndDots && isASCII {
            let parts = raw.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count == 4, parts.allSatisfy({ !$0.isEmpty && $0.count <= 3 && (Int($0) ?? 256) <= 255 }) else {
                return .failure(Problem(message: "'\(raw)' is not an IPv4 address"))
            }
            return .success((raw, .ipv4))
        }
        if isASCII {
            guard valid else {
                let bad = raw.first { !($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == ".") } ?? "?"
                return .failure(Problem(message: "'\(raw)' contains '\(bad)', which no host name may"))
            }
            guard !emptyLabel else { return .failure(Problem(message: "'\(raw)' has an empty label")) }
            guard longestLabel <= 63 else {
                return .failure(Problem(message: "'\(raw)' has a label longer than 63 characters"))
            }
            return .success((hasUpper ? raw.lowercased() : raw, .name))
        }
        // International: lowercase, NFC, Punycode per label, then the ASCII rules again.
        let ascii: String
        let shown = raw.count > 80 ? raw.prefix(80) + "…" : raw
        switch Punycode.toASCII(raw.lowercased().canonicallyComposed) {
        case .success(let encoded): ascii = encoded
        case .failure(.labelTooLong):
            return .failure(Problem(message: "'\(shown)' has a label longer than 63 characters"))
        case .failure(.nameTooLong):
            return .failure(Problem(message: "'\(shown)' is longer than a host name may be (253 characters)"))
        case .failure(.unencodable):
            return .failure(Problem(message: "'\(raw)' is not a valid international host name"))
        }
        var copy = ascii
        let again = copy.withUTF8 { Parser(text: text, bytes: $0).classify(0 ..< $0.count) }
        if case .failure = again {
            return .failure(Problem(message: "'\(raw)' is not a valid international host name"))
        }
        return again
    }
}
