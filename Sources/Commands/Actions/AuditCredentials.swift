import FoundationEssentials
import Passwords
import Platform
import UnicodeText
import VaultAgent
import VaultModel

/// `pwtui audit`: which passwords to change — weak, reused, old or breached (docs/audit.md) —
/// judged where the vault is open (an unlocked agent, else here after the master password), and
/// reported by title, id and kind only. Exits 0 when nothing was found, 3 (`auditFindings`) when
/// something was, after the report.
public struct AuditCredentials {
    public enum Format: String, CaseIterable, Sendable {
        case table, json
    }

    /// The ordered hash file or range directory, as typed; nil: the settings' `pwned_passwords`,
    /// else no breach check.
    public var breachSource: String?
    public var olderThanDays: Int
    public var format: Format
    public var clock: Clock

    public init(
        breachSource: String?, olderThanDays: Int = AuditOptions.defaultOlderThanDays, format: Format = .table,
        clock: Clock = .system
    ) {
        self.breachSource = breachSource
        self.olderThanDays = olderThanDays
        self.format = format
        self.clock = clock
    }

    /// "365d", "52w", "1y" or plain days, as days; nil for anything else.
    public static func days(_ text: String) -> Int? {
        let units: [Character: Int] = ["d": 1, "w": 7, "y": 365]
        let unit = text.last.flatMap { units[$0] }
        guard let value = Int(unit == nil ? text : String(text.dropLast())), value >= 0 else { return nil }
        let (days, overflow) = value.multipliedReportingOverflow(by: unit ?? 1)
        return overflow || days > 100 * 365 ? nil : days
    }

    public func run(in context: CommandContext) throws {
        let source = try breachSource ?? context.settings().pwnedPasswords
        let options = AuditOptions(breachSource: source.map(FileSystem.absolute), olderThanDays: olderThanDays)
        // A mistyped or wrong file is said before the master password is asked for.
        if let path = options.breachSource { _ = try BreachSources.open(path) }
        let report = try Self.report(options, now: clock.now(), in: context)
        switch format {
        case .table: try context.streams.write(Self.table(report))
        case .json: try context.streams.write(Self.json(report))
        }
        guard report.isClean else {
            throw CommandFailure(.auditFindings, Self.tally(report))
        }
    }

    /// The report from an unlocked agent holding this vault, else from the vault opened here.
    static func report(_ options: AuditOptions, now: Timestamp, in context: CommandContext) throws -> AuditReport {
        try VaultAccess.open(context).audit(options, now: now)
    }

    /// "2 of 12 passwords need changing: 1 weak, 2 reused, 0 old, 1 breached" (the counts are of
    /// credentials with that finding, so they may add up to more).
    static func tally(_ report: AuditReport) -> String {
        let counts = AuditFinding.Kind.allCases.map { "\(report.count(of: $0)) \($0.rawValue)" }
        return "\(report.credentials.count) of \(report.audited) password\(report.audited == 1 ? "" : "s") "
            + (report.credentials.count == 1 ? "needs" : "need") + " changing: " + counts.joined(separator: ", ")
    }

    static func table(_ report: AuditReport) -> String {
        let breached =
            report.options.breachSource.map { "breached (in \($0))" } ?? "not checked for breaches (no --hibp FILE|DIR)"
        var text =
            "Audited \(report.audited) password\(report.audited == 1 ? "" : "s"): weak, reused (secret fields too), "
            + "unchanged for over \(report.options.olderThanDays) days, \(breached)\n"
        guard !report.isClean else { return text + "Nothing found.\n" }
        text += tally(report) + "\n"
        for credential in report.credentials {
            let id = String(credential.id.uuidString.lowercased().prefix(8))
            let user = credential.username.isEmpty ? "" : " (\(credential.username))"
            text += "\n" + PrintableText.escaped("\(id)  \(credential.title)\(user)") + "\n"
            for finding in credential.findings { text += "  " + PrintableText.escaped(finding.summary) + "\n" }
        }
        return text
    }

    static func json(_ report: AuditReport) -> String {
        func finding(_ finding: AuditFinding) -> String {
            var fields = ["\"kind\":\(JSONText.quote(finding.kind.rawValue))"]
            switch finding {
            case .weak(let bits, let reason):
                fields.append("\"bits\":\(bits)")
                fields.append("\"reason\":\(reason.map(JSONText.quote) ?? "null")")
            case .weakKey(let type, let bits):
                fields.append("\"key_type\":\(JSONText.quote(type))")
                fields.append("\"bits\":\(bits)")
            case .reused(let elsewhere):
                let places = elsewhere.map { place in
                    "{\"id\":\(JSONText.quote(place.id.uuidString.lowercased())),"
                        + "\"title\":\(JSONText.quote(place.title)),"
                        + "\"field\":\(place.field.map(JSONText.quote) ?? "null")}"
                }
                fields.append("\"with\":[\(places.joined(separator: ","))]")
            case .old(let days, let set):
                fields.append("\"days\":\(days)")
                fields.append("\"since\":\(JSONText.quote(Timestamp(millisecondsSince1970: set).description))")
            case .breached(let count):
                fields.append("\"count\":\(count)")
            }
            return "{" + fields.joined(separator: ",") + "}"
        }
        let credentials = report.credentials.map { credential in
            "{\"id\":\(JSONText.quote(credential.id.uuidString.lowercased())),"
                + "\"title\":\(JSONText.quote(credential.title)),"
                + "\"username\":\(JSONText.quote(credential.username)),"
                + "\"findings\":[\(credential.findings.map(finding).joined(separator: ","))]}"
        }
        return "{\"audited\":\(report.audited),"
            + "\"breach_source\":\(report.options.breachSource.map(JSONText.quote) ?? "null"),"
            + "\"older_than_days\":\(report.options.olderThanDays),"
            + "\"credentials\":[" + credentials.joined(separator: ",\n ") + "]}\n"
    }
}
