#if canImport(Glibc)
    import Glibc
#endif
import FoundationEssentials

/// Where pwtui keeps its files, per the XDG Base Directory specification, resolved from an
/// `Environment` once. The one place that knows the XDG variables and their fallbacks.
public struct Paths: Sendable, Equatable {
    /// `$XDG_CONFIG_HOME/pwtui`: settings and user themes.
    public let configDirectory: String
    /// `$XDG_DATA_HOME/pwtui`: the default vault's folder.
    public let dataDirectory: String
    /// `$XDG_STATE_HOME/pwtui`: local state, never synced (use history, identity stores).
    public let stateDirectory: String
    /// `$XDG_RUNTIME_DIR/pwtui`, else `/tmp/pwtui-<uid>`: the agent's socket.
    public let runtimeDirectory: String
    /// `$TMPDIR` (set and not empty), else `/tmp`, without a trailing slash (the root is "", so
    /// that `+ "/name"` is always right): scratch folders (the demo's vault). A relative one is
    /// taken from the current directory, as Foundation's `temporaryDirectory` took it.
    public let temporaryDirectory: String

    public init(environment: Environment, userID: UInt32) {
        let home = environment["HOME"] ?? "."
        configDirectory = (environment["XDG_CONFIG_HOME"] ?? home + "/.config") + "/pwtui"
        dataDirectory = (environment["XDG_DATA_HOME"] ?? home + "/.local/share") + "/pwtui"
        stateDirectory = (environment["XDG_STATE_HOME"] ?? home + "/.local/state") + "/pwtui"
        runtimeDirectory = environment["XDG_RUNTIME_DIR"].map { $0 + "/pwtui" } ?? "/tmp/pwtui-\(userID)"
        var temporary = Substring(environment["TMPDIR"] ?? "/tmp")
        while temporary.hasSuffix("/") { temporary = temporary.dropLast() }
        temporaryDirectory = temporary.isEmpty ? "" : FileSystem.absolute(String(temporary))
    }

    /// For this process's user.
    public init(environment: Environment) {
        self.init(environment: environment, userID: getuid())
    }

    /// `config.toml` in the config directory.
    /// A path as typed, with a leading "~" or "~/" standing for `home` (not "~user": pwtui reads
    /// no user database).
    public static func expandingTilde(in path: String, home: String) -> String {
        guard path == "~" || path.hasPrefix("~/"), !home.isEmpty else { return path }
        return home + path.dropFirst()
    }

    public var settingsFile: String { configDirectory + "/config.toml" }
    /// `vault.pwtui` in the data directory (docs/design.md#the-vault-file).
    public var defaultVaultFile: String { dataDirectory + "/vault.pwtui" }
    /// The local use history, a tie-break in rankings.
    public var usageFile: String { stateDirectory + "/usage" }
    /// The passwords a git host rejected (the git helper's memory).
    public var gitRejectionsFile: String { stateDirectory + "/git-rejected" }
    /// The highest generation seen of each vault: the rollback warning's memory.
    public var generationsFile: String { stateDirectory + "/generations" }
    /// The conflict copies already merged into a vault, so `doctor` stops asking for them.
    public var mergedCopiesFile: String { stateDirectory + "/merged-copies" }
    /// One identity store per vault file lives in here.
    public var identityStoreDirectory: String { stateDirectory + "/identities" }
    /// User themes, beside the settings.
    public var themesDirectory: String { configDirectory + "/themes" }
    /// The agent's socket.
    public var agentSocket: String { runtimeDirectory + "/agent.sock" }

    /// The agent's ssh-agent socket, beside its own (`SSH_AUTH_SOCK`, `pwtui ssh socket`).
    public var sshAgentSocket: String { runtimeDirectory + "/ssh-agent.sock" }
}
