import Foundation

extension Sandbox {
    /// Where pwtui reads its settings in this sandbox (XDG_CONFIG_HOME/pwtui/config.toml).
    var configFile: String { root + "/xdg/config/pwtui/config.toml" }

    /// Writes `toml` as the settings file, 0600 as pwtui itself writes it (it refuses settings
    /// others may change).
    func writeConfig(_ toml: String) throws {
        try FileManager.default.createDirectory(atPath: (configFile as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        try toml.write(toFile: configFile, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: configFile)
    }
}
