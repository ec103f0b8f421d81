import ServiceMatching
import VaultModel

/// `pwtui equivalents add|list|rm`: domains that are one site to the user (stored in the vault).
public enum EditEquivalents {
    /// Declares `domains` (two or more) one site; a domain already in a group brings its group.
    public static func add(_ domains: [String], in context: CommandContext) throws {
        let normalized = try Self.domains(domains)
        let (group, _) = try VaultAccess.open(context).change(.add(normalized))
        if let group { context.streams.say("Equivalent: \(group.joined(separator: " "))") }
    }

    /// The groups, one per line, from the cheapest source that is up to date: the user's, then
    /// (unless `userOnly`) the built-in ones, marked, and marked off when turned off.
    public static func list(userOnly: Bool = false, in context: CommandContext) throws {
        let groups = try ListedIdentities.load(context).equivalents.groups
        var lines = groups.map { $0.joined(separator: " ") + "\n" }
        if !userOnly {
            let disabled = Set(try context.settings().disabledEquivalents)
            for group in BuiltInEquivalents.groups {
                lines.append(
                    group.joined(separator: " ")
                        + (group.contains(where: disabled.contains) ? "  (built in, off)\n" : "  (built in)\n"))
            }
        }
        try context.streams.write(lines.joined())
    }

    /// Turns the built-in groups holding `domains` off (`on`: false) or back on, in the settings.
    public static func setBuiltIn(_ domains: [String], on: Bool, in context: CommandContext) throws {
        let normalized = try Self.domains(domains)
        var settings = try context.settings()
        for domain in normalized {
            guard let group = BuiltInEquivalents.groups.first(where: { $0.contains(domain) }) else {
                throw CommandFailure(
                    .noMatch, "\(domain) is in no built-in group (pwtui equivalents list shows them); nothing changed")
            }
            settings.disabledEquivalents.removeAll { group.contains($0) }
            if !on { settings.disabledEquivalents.append(domain) }
            context.streams.say("Built-in group \(on ? "on" : "off"): \(group.joined(separator: " "))")
        }
        try settings.save(to: context.configPath)
    }

    /// Takes `domains` out of their groups (a group left with one domain is dropped).
    public static func remove(_ domains: [String], in context: CommandContext) throws {
        try VaultAccess.open(context).change(.remove(try Self.domains(domains)))
    }

    /// Domains as given on the command line, normalised (lowercase, IDN, no trailing dot).
    static func domains(_ texts: [String]) throws -> [String] {
        try texts.map { text in
            let service = try ServiceIdentifier(text)
            guard service.form == .domain, !service.isWildcard, service.port == nil else {
                throw CommandFailure(.usage, "'\(text)' is not a plain domain")
            }
            return service.host
        }
    }
}
