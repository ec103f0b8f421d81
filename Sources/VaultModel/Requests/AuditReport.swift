import FoundationEssentials
import Platform

/// What `pwtui audit` is asked, wherever the vault is open (here, or in the agent).
public struct AuditOptions: Codable, Sendable, Equatable {
    /// Have I Been Pwned's ordered hash file or a directory of range files (an absolute path: the
    /// agent reads it in its own working directory); nil: no breach check.
    public var breachSource: String?
    /// A password unchanged for longer than this is old.
    public var olderThanDays: Int

    public static let defaultOlderThanDays = 365

    public init(breachSource: String? = nil, olderThanDays: Int = AuditOptions.defaultOlderThanDays) {
        self.breachSource = breachSource
        self.olderThanDays = olderThanDays
    }
}

/// What an audit found: titles, ids and the kind of each finding, never a secret (nor anything
/// derived from one that outlives the audit), so it may travel from the agent and be printed.
public struct AuditReport: Codable, Sendable, Equatable {
    /// How many passwords were looked at (credentials with an empty password are not).
    public var audited: Int
    public var options: AuditOptions
    /// The credentials with at least one finding, in the vault's order.
    public var credentials: [AuditedCredential]

    public init(audited: Int, options: AuditOptions, credentials: [AuditedCredential]) {
        self.audited = audited
        self.options = options
        self.credentials = credentials
    }

    public var isClean: Bool { credentials.isEmpty }

    /// The findings for one credential; empty when it has none.
    public func findings(of id: UUID) -> [AuditFinding] {
        credentials.first { $0.id == id }?.findings ?? []
    }

    /// Each credential's kinds of finding, for marking rows in a list.
    public var kindsByCredential: [UUID: Set<AuditFinding.Kind>] {
        Dictionary(credentials.map { ($0.id, Set($0.findings.map(\.kind))) }, uniquingKeysWith: { $0.union($1) })
    }

    /// How many credentials have a finding of `kind`.
    public func count(of kind: AuditFinding.Kind) -> Int {
        credentials.filter { $0.findings.contains { $0.kind == kind } }.count
    }
}

/// One credential with what was found about its password.
public struct AuditedCredential: Codable, Sendable, Equatable {
    public var id: UUID
    public var title: String
    public var username: String
    public var findings: [AuditFinding]

    public init(id: UUID, title: String, username: String, findings: [AuditFinding]) {
        self.id = id
        self.title = title
        self.username = username
        self.findings = findings
    }
}

/// Why a password should change.
public enum AuditFinding: Codable, Sendable, Equatable {
    /// The strength estimate is under the policy (`PasswordStrength.fairBits`); `reason`: the
    /// pattern that makes it guessable ("a common word or password").
    case weak(bits: Int, reason: String?)
    /// An SSH key too small to be safe (RSA under 2048 bits): judged by its type and size, never
    /// by a password estimate. `type`: `rsa`, as `ssh generate --type` names it.
    case weakKey(type: String, bits: Int)
    /// The same password is also the password of, or a secret field in, these.
    case reused(elsewhere: [AuditReuse])
    /// Unchanged for `days` days, since it was set (milliseconds since 1970, as `Timestamp`).
    case old(days: Int, setMilliseconds: Int64)
    /// Seen `count` times in Have I Been Pwned's Pwned Passwords.
    case breached(count: Int)

    public enum Kind: String, Codable, Sendable, CaseIterable, Comparable {
        case weak, reused, old, breached

        public static func < (a: Kind, b: Kind) -> Bool {
            allCases.firstIndex(of: a) ?? 0 < allCases.firstIndex(of: b) ?? 0
        }
    }

    public var kind: Kind {
        switch self {
        case .weak, .weakKey: return .weak
        case .reused: return .reused
        case .old: return .old
        case .breached: return .breached
        }
    }

    /// One line for a person: "weak: about 20 bits (a common word or password)".
    public var summary: String {
        switch self {
        case .weak(let bits, let reason):
            return "weak: about \(bits) bits" + (reason.map { " (\($0))" } ?? "")
        case .weakKey(let type, let bits):
            return
                "weak: an \(type.uppercased()) key of \(bits) bits (2048 at least; `pwtui ssh generate` makes a new one)"
        case .reused(let elsewhere):
            return "reused: also " + elsewhere.map(\.summary).joined(separator: ", ")
        case .old(let days, let set):
            return "old: unchanged for \(days) days (since \(Timestamp(millisecondsSince1970: set).minuteText))"
        case .breached(let count):
            return "breached: seen \(count) time\(count == 1 ? "" : "s") in Have I Been Pwned's Pwned Passwords"
        }
    }
}

/// Another place the same password is kept: a credential's password, or one of its secret fields.
public struct AuditReuse: Codable, Sendable, Equatable {
    public var id: UUID
    public var title: String
    /// The secret field's name; nil for the password.
    public var field: String?

    public init(id: UUID, title: String, field: String?) {
        self.id = id
        self.title = title
        self.field = field
    }

    /// "the password of GitHub (3f2a1b2c)" or "the field PIN of Bank (9e8d7c6b)".
    public var summary: String {
        let owner = "\(title) (\(String(id.uuidString.lowercased().prefix(8))))"
        return field.map { "the field \($0) of \(owner)" } ?? "the password of \(owner)"
    }
}
