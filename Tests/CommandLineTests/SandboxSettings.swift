import Foundation

extension Sandbox {
    /// Where pwtui reads its settings in this sandbox (XDG_CONFIG_HOME/pwtui/config.toml).
    var configFile: String { root + "/xdg/config/pwtui/config.toml" }

    /// Writes `toml` as the settings file, 0600 as pwtui itself writes it (it refuses settings
    /// others may change). Unless it says otherwise, with `agent = "off"`: a password typed in a
    /// test would otherwise start an agent that outlives it (`AgentAutoUnlockTests` turn it on).
    func writeConfig(_ toml: String) throws {
        try FileManager.default.createDirectory(
            atPath: (configFile as NSString).deletingLastPathComponent,
            withIntermediateDirectories: true)
        let text =
            toml.contains("agent")
            ? toml : toml + (toml.isEmpty || toml.hasSuffix("\n") ? "" : "\n") + "agent = \"off\"\n"
        try text.write(toFile: configFile, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: configFile)
    }
}
