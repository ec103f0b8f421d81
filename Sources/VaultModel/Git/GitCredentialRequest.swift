import Platform
import VaultCrypto
import ServiceMatching

/// One request of git's credential-helper protocol (`git help credential`, "INPUT/OUTPUT
/// FORMAT"): `key=value` lines on stdin, ended by a blank line or the end of input.
///
/// What git may send and what becomes of it here:
/// - `protocol`, `host` (with a port when the URL named one: `example.com:8443`), `path` (only
///   with `credential.useHttpPath`, without its leading '/'), `username`: kept as text.
/// - `password`: straight from the input buffer into protected memory, never a `String`.
/// - `url`: parsed into those parts, as git itself reads it: it clears whatever came before it,
///   and later lines override its parts. A password in it goes to protected memory too.
/// - `password_expiry_utc` (git 2.41+): kept, so that a short-lived token is not stored for good.
/// - anything else (`oauth_refresh_token`, `wwwauth[]`, `capability[]`, `quit`, keys of future
///   gits) is dropped unread; an `oauth_refresh_token` is a secret and must not become a String.
/// An empty value is an absent one for matching (`username=` names no user), but `store` still
/// learns that it was given (`storedUsername`, `hasEmptyPassword`): git stores an empty username
/// and password for hosts that need none (single sign-on), and asks for them back. Lines are read
/// as git reads them (a CR before the LF is dropped) and a line without '=' is ignored.
public struct GitCredentialRequest: ~Copyable {
    public private(set) var fields: [String: String] = [:]
    public var password: SecureBytes?
    /// `username` and `password` when their last line gave them empty.
    public private(set) var givenEmpty: Set<String> = []

    /// The attributes kept as text; everything else is dropped on reading.
    static let textAttributes: Set<String> = ["protocol", "host", "path", "username", "password_expiry_utc"]

    /// More than this is not a credential request: refused, never cut short and half-read.
    public static let maximumSize = Limits.gitRequestBytes

    public init(fields: [String: String] = [:], password: consuming SecureBytes?, givenEmpty: Set<String> = []) {
        self.fields = fields.filter { Self.textAttributes.contains($0.key) && !$0.value.isEmpty }
        self.password = password
        self.givenEmpty = givenEmpty.filter { $0 == "username" || $0 == "password" }
    }

    /// Reads one request from `descriptor`, stopping at the blank line that ends it: a caller may
    /// keep the pipe open to read the answer, so waiting for the end of input would hang both.
    public static func read(from descriptor: Int32) throws -> GitCredentialRequest {
        var input = try cryptoCall { () throws(VaultCryptoError) in try SecureBytes(capacity: 4096) }
        let source = FileDescriptor(rawValue: descriptor)
        var lineLength = 0  // bytes of the current line so far, a CR not counted
        // A byte at a time: git keeps the pipe open for the answer, so nothing past the blank
        // line may be taken. A read error ends the request, as the end of input does.
        while input.count < maximumSize, let byte = try? source.readByte() {
            try cryptoCall { () throws(VaultCryptoError) in try input.append(byte) }
            if byte == 0x0A {
                if lineLength == 0 { break }
                lineLength = 0
            } else if byte != 0x0D {
                lineLength += 1
            }
        }
        guard input.count < maximumSize else {
            throw VaultError.invalidRequest("git's request is longer than \(maximumSize) bytes; nothing was done")
        }
        return try parse(input)
    }

    /// Parses the protocol's bytes, held in protected memory since they may carry a password.
    public static func parse(_ input: borrowing SecureBytes) throws -> GitCredentialRequest {
        var fields: [String: String] = [:]
        var password: SecureBytes?
        var givenEmpty: Set<String> = []
        try input.withUnsafeBytes { bytes in
            try parse(bytes, fields: &fields, password: &password, givenEmpty: &givenEmpty)
        }
        return GitCredentialRequest(fields: fields, password: password, givenEmpty: givenEmpty)
    }

    private static func parse(
        _ input: UnsafeRawBufferPointer, fields: inout [String: String], password: inout SecureBytes?,
        givenEmpty: inout Set<String>
    ) throws {
        var lineStart = 0
        while lineStart < input.count {
            var lineEnd = lineStart
            while lineEnd < input.count, input[lineEnd] != 0x0A { lineEnd += 1 }
            var line = UnsafeRawBufferPointer(rebasing: input[lineStart ..< lineEnd])
            lineStart = lineEnd + 1
            if line.last == 0x0D { line = UnsafeRawBufferPointer(rebasing: line.dropLast()) }
            if line.isEmpty { break }
            guard let equals = line.firstIndex(of: 0x3D) else { continue }
            let key = String(decoding: UnsafeRawBufferPointer(rebasing: line[..<equals]), as: UTF8.self)
            let value = UnsafeRawBufferPointer(rebasing: line[(equals + 1)...])
            if value.isEmpty { givenEmpty.insert(key) } else { givenEmpty.remove(key) }
            switch key {
            case "password":
                password =
                    value.isEmpty
                    ? nil : try cryptoCall { () throws(VaultCryptoError) in try SecureBytes(copying: value) }
            case "url":
                fields.removeAll()
                givenEmpty.removeAll()
                password = nil
                try parseURL(value, fields: &fields, password: &password)
            case _ where textAttributes.contains(key):
                fields[key] = value.isEmpty ? nil : String(decoding: value, as: UTF8.self)
            default:
                continue
            }
        }
    }

    /// `protocol://[user[:password]@]host[:port][/path]`, split as git's `credential_from_url`
    /// splits it: user information ends at the first '@' before the first '/', the path loses its
    /// trailing slashes, and user, password, host and path are percent-decoded.
    private static func parseURL(
        _ url: UnsafeRawBufferPointer, fields: inout [String: String], password: inout SecureBytes?
    ) throws {
        guard let schemeEnd = find(Array("://".utf8), in: url) else { return }
        fields["protocol"] = String(decoding: UnsafeRawBufferPointer(rebasing: url[..<schemeEnd]), as: UTF8.self)
        let rest = UnsafeRawBufferPointer(rebasing: url[(schemeEnd + 3)...])
        let slash = rest.firstIndex(of: 0x2F) ?? rest.endIndex
        var hostStart = rest.startIndex
        if let at = rest[..<slash].firstIndex(of: 0x40) {
            hostStart = at + 1
            let userinfo = UnsafeRawBufferPointer(rebasing: rest[..<at])
            let colon = userinfo.firstIndex(of: 0x3A) ?? userinfo.endIndex
            fields["username"] = decodedText(UnsafeRawBufferPointer(rebasing: userinfo[..<colon]))
            if colon < userinfo.endIndex {
                var secret = try cryptoCall { () throws(VaultCryptoError) in try SecureBytes(capacity: userinfo.count) }
                try percentDecode(UnsafeRawBufferPointer(rebasing: userinfo[(colon + 1)...])) { byte in
                    try cryptoCall { () throws(VaultCryptoError) in try secret.append(byte) }
                }
                if secret.isEmpty { password = nil } else { password = consume secret }
            }
        }
        fields["host"] = decodedText(UnsafeRawBufferPointer(rebasing: rest[hostStart ..< slash]))
        if slash < rest.endIndex {
            var path = UnsafeRawBufferPointer(rebasing: rest[(slash + 1)...])
            while path.last == 0x2F { path = UnsafeRawBufferPointer(rebasing: path.dropLast()) }
            fields["path"] = decodedText(path)
        }
        fields = fields.filter { !$0.value.isEmpty }
    }

    private static func find(_ needle: [UInt8], in haystack: UnsafeRawBufferPointer) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for start in haystack.startIndex ... haystack.endIndex - needle.count
        where haystack[start ..< start + needle.count].elementsEqual(needle) {
            return start
        }
        return nil
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30 ... 0x39: return byte - 0x30
        case 0x41 ... 0x46: return byte - 0x41 + 10
        case 0x61 ... 0x66: return byte - 0x61 + 10
        default: return nil
        }
    }

    /// `%XX` to the byte it names; a '%' not followed by two hex digits stays as it is (git too).
    private static func percentDecode(_ bytes: UnsafeRawBufferPointer, _ emit: (UInt8) throws -> Void) rethrows {
        var index = bytes.startIndex
        while index < bytes.endIndex {
            if bytes[index] == 0x25, index + 2 < bytes.endIndex,
                let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2])
            {
                try emit(high << 4 | low)
                index += 3
            } else {
                try emit(bytes[index])
                index += 1
            }
        }
    }

    private static func decodedText(_ bytes: UnsafeRawBufferPointer) -> String {
        var decoded: [UInt8] = []
        percentDecode(bytes) { decoded.append($0) }
        return String(decoding: decoded, as: UTF8.self)
    }

    // MARK: What the request names

    /// "http" or "https" (lowercased); nil for any other protocol: ssh keys, `cert:` passphrases
    /// and the like are not pwtui's business.
    public var webProtocol: String? {
        guard let scheme = fields["protocol"]?.lowercased(), scheme == "http" || scheme == "https" else { return nil }
        return scheme
    }

    /// The repository's path on the server, as git sends it with `credential.useHttpPath`
    /// (decoded, no leading '/'); nil without that option.
    public var path: String? { fields["path"] }

    /// `protocol://host[:port]/path` with the path percent-encoded where a URL needs it (git sends
    /// it decoded: `my repo.git`). Nil when git sent no host or a protocol other than http(s).
    public func url() -> String? {
        guard let scheme = webProtocol, let host = fields["host"] else { return nil }
        return "\(scheme)://\(host)/" + Self.encodedPath(path ?? "")
    }

    /// The request as a service identifier (see `url()`).
    public func service() throws -> ServiceIdentifier? {
        try url().map { try ServiceIdentifier($0) }
    }

    /// Bytes a URL's path cannot hold as they are (ServiceIdentifier refuses spaces and control
    /// characters; '?' and '#' would end the path, '%' would read as an escape).
    static func encodedPath(_ path: String) -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        var encoded: [UInt8] = []
        for byte in path.utf8 {
            if byte <= 0x20 || byte == 0x7F || byte == 0x25 || byte == 0x3F || byte == 0x23 {
                encoded += [0x25, digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]]
            } else {
                encoded.append(byte)
            }
        }
        return String(decoding: encoded, as: UTF8.self)
    }

    /// The user to match: nil when git named none, or named the empty one.
    public var username: String? { fields["username"] }

    /// The user to store: `username=` given empty is the empty username, kept as git sent it.
    public var storedUsername: String? { username ?? (givenEmpty.contains("username") ? "" : nil) }

    /// `password=` given empty: a password to store (single sign-on), nothing to compare.
    /// (The last password line, or url=, wins: either clears the mark when it brings a password.)
    public var hasEmptyPassword: Bool { givenEmpty.contains("password") }

    /// When git (2.41+) says the password stops working, seconds since 1970.
    public var passwordExpiry: Int64? { fields["password_expiry_utc"].flatMap { Int64($0) } }
}
