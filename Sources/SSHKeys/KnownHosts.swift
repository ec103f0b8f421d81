import FoundationEssentials
import Platform
import VaultCrypto

/// OpenSSH's known_hosts files, read to learn which host a bound connection is talking to: the
/// client names the server's host key (`session-bind@openssh.com`), and the lines that hold that
/// key say under which names the user accepted it. That is how the agent turns a key into a host
/// without trusting anything the client merely says: the key's signature was checked, and the
/// names are the user's own record (sshd(8), "SSH_KNOWN_HOSTS FILE FORMAT").
///
/// A line is `[marker] patterns keytype base64-key [comment]`. Patterns are comma-separated: a
/// name or address, `[host]:port` off port 22, with `*` and `?` wildcards, a leading `!` to
/// negate; or one hashed name `|1|salt|hash` (HMAC-SHA-1 of the name, keyed with the salt), which can be tested against a
/// host but not read. Lines marked `@revoked` or `@cert-authority` name no host by their key and
/// are skipped, as are lines that do not parse: the file is the user's, and one bad line must not
/// hide the others.
///
/// Ports are not known to the agent (the binding carries none), so `[host]:port` counts as
/// `host`: the host key, the same on every port it is found under, is what identifies the server.
public struct KnownHosts {
    public struct Line {
        public var names: [String]
        public var negated: [String]
        public var hashed: [(salt: [UInt8], hash: [UInt8])]
        public var keyBlob: [UInt8]
    }

    public private(set) var lines: [Line] = []

    public init() {}

    /// The files OpenSSH reads by default: the user's (`~/.ssh/known_hosts`, `known_hosts2`) and
    /// the system's (`/etc/ssh/ssh_known_hosts`, `ssh_known_hosts2`). A `UserKnownHostsFile` set
    /// in ssh_config is not followed (docs/ssh.md).
    public static func defaultFiles(home: String?) -> [String] {
        let user = home.map { [$0 + "/.ssh/known_hosts", $0 + "/.ssh/known_hosts2"] } ?? []
        return user + ["/etc/ssh/ssh_known_hosts", "/etc/ssh/ssh_known_hosts2"]
    }

    /// The lines of the files that exist and can be read; the others are passed over.
    public static func read(_ paths: [String]) -> KnownHosts {
        var known = KnownHosts()
        for path in paths {
            guard let text = try? RegularFile.textIfPresent(path) else { continue }
            known.lines += parse(text).lines
        }
        return known
    }

    public static func parse(_ text: String) -> KnownHosts {
        var known = KnownHosts()
        for raw in text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            var words = raw.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            guard let first = words.first, !first.hasPrefix("#") else { continue }
            if first.hasPrefix("@") { continue }  // @revoked, @cert-authority: no host's own key
            guard words.count >= 3, let key = Data(base64Encoded: words[2]) else { continue }
            var line = Line(names: [], negated: [], hashed: [], keyBlob: Array(key))
            for written in words.removeFirst().split(separator: ",").map(String.init) {
                if written.hasPrefix("|1|") {
                    // Base64 is case-sensitive: a hashed name is taken as written.
                    let parts = written.split(separator: "|", omittingEmptySubsequences: false)
                    guard parts.count == 4, let salt = Data(base64Encoded: String(parts[2])),
                        let hash = Data(base64Encoded: String(parts[3]))
                    else { continue }
                    line.hashed.append((Array(salt), Array(hash)))
                } else if written.hasPrefix("!") {
                    line.negated.append(Self.withoutPort(String(written.dropFirst()).lowercased()))
                } else {
                    line.names.append(Self.withoutPort(written.lowercased()))
                }
            }
            known.lines.append(line)
        }
        return known
    }

    /// Whether any line holds `keyBlob`: the user has accepted this host key under some name.
    public func contains(_ keyBlob: [UInt8]) -> Bool {
        lines.contains { $0.keyBlob == keyBlob }
    }

    /// The names `keyBlob` is known under that are names and not patterns (no wildcard), for
    /// showing where a connection goes; in the files' order, each once.
    public func names(of keyBlob: [UInt8]) -> [String] {
        var seen = Set<String>()
        return lines.filter { $0.keyBlob == keyBlob }.flatMap(\.names).filter {
            !$0.contains("*") && !$0.contains("?") && seen.insert($0).inserted
        }
    }

    /// Whether `host` (a key's `--host`, itself possibly a wildcard pattern such as
    /// `*.example.com`) names the server whose host key is `keyBlob`: some line holding the key
    /// matches it by a name or a hash and does not negate it.
    public func knows(_ host: String, as keyBlob: [UInt8]) -> Bool {
        let host = Self.withoutPort(host.lowercased())
        return lines.contains { line in
            guard line.keyBlob == keyBlob else { return false }
            if line.negated.contains(where: { Self.wildcard($0, matches: host) }) { return false }
            if line.names.contains(where: { Self.wildcard($0, matches: host) || Self.wildcard(host, matches: $0) }) {
                return true
            }
            return line.hashed.contains { Self.hashed(host, salt: $0.salt, is: $0.hash) }
        }
    }

    /// Whether `host` hashes under `salt` to `hash`, as `HashKnownHosts` writes a name:
    /// HMAC-SHA-1 keyed with the salt. Neither is secret: both are in the user's own file.
    public static func hashed(_ host: String, salt: [UInt8], is hash: [UInt8]) -> Bool {
        let name = Array(host.utf8)
        return name.withUnsafeBytes { message in
            salt.withUnsafeBytes { key in
                guard let digest = try? HMAC.authenticate(message, key: key, using: .sha1) else { return false }
                return digest.withUnsafeBytes { Array($0) == hash }
            }
        }
    }

    /// `[host]:port` as `host`; anything else as it is.
    public static func withoutPort(_ pattern: String) -> String {
        guard pattern.hasPrefix("["), let close = pattern.lastIndex(of: "]") else { return pattern }
        return String(pattern[pattern.index(after: pattern.startIndex) ..< close])
    }

    /// OpenSSH's `match_pattern`: `*` any run of characters, `?` any one, the rest literally.
    public static func wildcard(_ pattern: String, matches text: String) -> Bool {
        let pattern = Array(pattern.utf8)
        let text = Array(text.utf8)
        // The classic two-pointer walk, backing up to the last `*` on a mismatch.
        var (p, t) = (0, 0)
        var star: (p: Int, t: Int)?
        while t < text.count {
            if p < pattern.count, pattern[p] == UInt8(ascii: "?") || pattern[p] == text[t] {
                p += 1
                t += 1
            } else if p < pattern.count, pattern[p] == UInt8(ascii: "*") {
                star = (p, t)
                p += 1
            } else if let last = star {
                p = last.p + 1
                t = last.t + 1
                star = (last.p, last.t + 1)
            } else {
                return false
            }
        }
        while p < pattern.count, pattern[p] == UInt8(ascii: "*") { p += 1 }
        return p == pattern.count
    }
}
