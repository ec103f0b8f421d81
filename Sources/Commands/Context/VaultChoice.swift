/// Which vault a command opens, and what named it. The order is fixed
/// (docs/design.md#the-vault-file): `--vault`, then `PWTUI_VAULT`, then the settings' `vault = `,
/// then the XDG data directory. Only the settings are a choice that lasts: a vault named for one
/// command or one shell (a scratch vault tried out) must never be written into them, or every later
/// command silently opens it (issue 26). So the wizard and `doctor` ask where the path came from.
public struct VaultChoice: Equatable, Sendable {
    public enum Source: Equatable, Sendable {
        case option
        case environment
        /// The settings file at this path.
        case settings(String)
        case defaultLocation

        /// How `doctor` and the wizard say it.
        public var description: String {
            switch self {
            case .option: "--vault"
            case .environment: "PWTUI_VAULT"
            case .settings(let file): "vault = in \(file)"
            case .defaultLocation: "the default location"
            }
        }

        /// Named for this command or this shell only, not by the settings.
        public var isTransient: Bool { self == .option || self == .environment }
    }

    public let path: String
    public let source: Source

    public init(path: String, source: Source) {
        self.path = path
        self.source = source
    }
}
