import FoundationEssentials
import Platform

/// The user's settings, `$XDG_CONFIG_HOME/pwtui/config.toml`: a small TOML subset (comments,
/// `key = "string"`, `key = integer`). Written atomically with mode 0600; a file that others
/// may write is refused, since it decides which vault pwtui opens.
public struct Settings: Equatable, Sendable {
    public var vault: String?
    public var theme = "default"
    public var clipboardTimeout = 45
    /// Whether the credential identity store is kept (off: no such file exists at all).
    public var identityStore = true
    /// Built-in equivalent groups turned off, each by one of its domains.
    public var disabledEquivalents: [String] = []
    /// `agent = "auto"`: a master password typed on a terminal also unlocks the agent (started
    /// if need be) for `agentIdleTimeout`, so the next `get`, pick or git login asks nothing, as
    /// rbw does; `"off"`: only `pwtui unlock` does.
    public var agent: AgentUse = .auto
    /// How long the agent stays unlocked unused: "15m", "90s", "2h" or seconds.
    public var agentIdleTimeout = "15m"
    /// Have I Been Pwned's ordered hash file or range directory (docs/audit.md): what `pwtui
    /// audit` checks without `--hibp`, and the picker's breached marks.
    public var pwnedPasswords: String?
    /// `secret_service = true`: the agent also serves the freedesktop Secret Service (it starts
    /// `pwtui-secret-service` beside it, docs/secret-service.md) while it runs.
    public var secretService = false

    public enum AgentUse: String, Sendable, Equatable, CaseIterable {
        case auto, off
    }

    /// "15m", "90s", "2h" or plain seconds, as seconds; nil for anything else. The one reading of
    /// the agent's idle timeout, in the settings and on the command line (`--idle-timeout`).
    public static func durationSeconds(_ text: String) -> Int64? {
        let units: [Character: Int64] = ["s": 1, "m": 60, "h": 3600]
        let unit = text.last.flatMap { units[$0] }
        guard let value = Int64(unit == nil ? text : String(text.dropLast())), value >= 0 else { return nil }
        let (seconds, overflow) = value.multipliedReportingOverflow(by: unit ?? 1)
        return overflow ? nil : seconds
    }

    public init(vault: String? = nil, theme: String = "default", clipboardTimeout: Int = 45, identityStore: Bool = true)
    {
        self.vault = vault
        self.theme = theme
        self.clipboardTimeout = clipboardTimeout
        self.identityStore = identityStore
    }

    public enum LoadError: Error, Equatable, CustomStringConvertible {
        case unsafePermissions(path: String)
        case malformed(path: String, line: Int, problem: String)
        /// Not a regular file (a FIFO, a device), or reading it failed.
        case unreadable(RegularFile.Failure)

        public var description: String {
            switch self {
            case .unsafePermissions(let path):
                return "\(path) can be written by other users; refusing to use it (chmod go-w \(path))"
            case .malformed(let path, let line, let problem):
                return "\(path):\(line): \(problem)"
            case .unreadable(let failure):
                return "the settings file: \(failure)"
            }
        }
    }

    /// The settings at `path`; defaults when there is no file.
    public static func load(from path: String) throws(LoadError) -> Settings {
        guard let info = try? FileSystem.status(path) else { return Settings() }
        if info.permissions & 0o022 != 0 { throw .unsafePermissions(path: path) }
        // Through the funnel: a FIFO here would otherwise hang every command at start.
        let text: String?
        do { text = try RegularFile.textIfPresent(path) } catch { throw .unreadable(error) }
        guard let text else { return Settings() }
        return try parse(text, path: path)
    }

    public static func parse(_ text: String, path: String) throws(LoadError) -> Settings {
        var settings = Settings()
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingSpaces()
            if line.isEmpty || line.hasPrefix("#") { continue }
            let parts = line.split(separator: "=", maxSplits: 1).map { $0.trimmingSpaces() }
            guard parts.count == 2 else {
                throw .malformed(path: path, line: index + 1, problem: "expected key = value")
            }
            let (key, value) = (parts[0], parts[1])
            func string() throws(LoadError) -> String {
                guard value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") else {
                    throw .malformed(path: path, line: index + 1, problem: "\(key) needs a quoted string")
                }
                return String(value.dropFirst().dropLast()).replacingEvery("\\\"", with: "\"")
                    .replacingEvery("\\\\", with: "\\")
            }
            switch key {
            case "vault": settings.vault = try string()
            case "theme": settings.theme = try string()
            case "clipboard_timeout":
                guard let seconds = Int(value), seconds >= 0, seconds <= 3600 else {
                    throw .malformed(
                        path: path, line: index + 1, problem: "clipboard_timeout must be 0 to 3600 seconds")
                }
                settings.clipboardTimeout = seconds
            case "identity_store":
                guard value == "true" || value == "false" else {
                    throw .malformed(path: path, line: index + 1, problem: "identity_store must be true or false")
                }
                settings.identityStore = value == "true"
            case "agent":
                guard let use = AgentUse(rawValue: try string()) else {
                    throw .malformed(path: path, line: index + 1, problem: "agent must be \"auto\" or \"off\"")
                }
                settings.agent = use
            case "agent_idle_timeout":
                let text = try string()
                guard let seconds = durationSeconds(text), seconds > 0 else {
                    throw .malformed(
                        path: path, line: index + 1,
                        problem: "agent_idle_timeout must be a duration like \"15m\", \"90s\" or \"2h\"")
                }
                settings.agentIdleTimeout = text
            case "secret_service":
                guard value == "true" || value == "false" else {
                    throw .malformed(path: path, line: index + 1, problem: "secret_service must be true or false")
                }
                settings.secretService = value == "true"
            case "pwned_passwords": settings.pwnedPasswords = try string()
            case "equivalents_off":
                settings.disabledEquivalents = try string().split(separator: ",").map { $0.trimmingSpaces() }
                    .filter { !$0.isEmpty }
            default:
                throw .malformed(path: path, line: index + 1, problem: "unknown setting '\(key)'")
            }
        }
        return settings
    }

    public var text: String {
        func quoted(_ value: String) -> String {
            "\"" + value.replacingEvery("\\", with: "\\\\").replacingEvery("\"", with: "\\\"") + "\""
        }
        var lines = ["# pwtui settings (pwtui configure changes them)"]
        if let vault { lines.append("vault = \(quoted(vault))") }
        lines.append("theme = \(quoted(theme))")
        lines.append("clipboard_timeout = \(clipboardTimeout)")
        lines.append("identity_store = \(identityStore)")
        lines.append("agent = \(quoted(agent.rawValue))")
        lines.append("agent_idle_timeout = \(quoted(agentIdleTimeout))")
        if secretService { lines.append("secret_service = true") }
        if let pwnedPasswords { lines.append("pwned_passwords = \(quoted(pwnedPasswords))") }
        if !disabledEquivalents.isEmpty {
            lines.append("equivalents_off = \(quoted(disabledEquivalents.joined(separator: ", ")))")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Writes the settings atomically, mode 0600, directory 0700.
    public func save(to path: String) throws {
        try AtomicFile.write(Data(text.utf8), to: path)
    }
}

extension Settings.LoadError: ExitStatusReporting {
    /// A settings file to fix (its permissions, a line) is the user's to change, as a bad option
    /// is; one that cannot be read is I/O.
    public var exitStatus: ExitStatus {
        switch self {
        case .unsafePermissions, .malformed: .usage
        case .unreadable(let failure): failure.exitStatus
        }
    }
}
