/// One step of the configuration wizard, in order. The first run goes through all of them;
/// `configure` on an existing vault starts at the unlock cost (the place and password are the vault's).
public enum ConfigurationStep: Equatable, Sendable {
    case location, password, confirmation, unlockCost, theme, clipboard, agent, summary

    /// The steps where ↑↓ choose among options (and the help bar says so).
    var offersChoice: Bool { self == .unlockCost || self == .theme || self == .agent }
}
