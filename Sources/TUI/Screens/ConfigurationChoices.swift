import VaultCrypto

/// What the configuration wizard answers with: everything but the new master password, which
/// stays in the screen's protected memory (`ConfigurationScreen.withPassword`).
public struct ConfigurationChoices: Equatable, Sendable {
    public var vaultPath: String
    public var parameters: KDFParameters
    public var theme: String
    public var clipboardTimeout: Int
    /// A master password typed on a terminal also unlocks the agent (settings: `agent = "auto"`).
    public var keepsAgentUnlocked: Bool
    /// The agent also serves the Secret Service (settings: `secret_service = true`).
    public var servesKeyring: Bool

    public init(
        vaultPath: String, parameters: KDFParameters, theme: String, clipboardTimeout: Int,
        keepsAgentUnlocked: Bool = true, servesKeyring: Bool = false
    ) {
        self.servesKeyring = servesKeyring
        self.vaultPath = vaultPath
        self.parameters = parameters
        self.theme = theme
        self.clipboardTimeout = clipboardTimeout
        self.keepsAgentUnlocked = keepsAgentUnlocked
    }
}
