import Foundation
import TUI

/// Where themes are found: the user's (`$XDG_CONFIG_HOME/pwtui/themes`), then the package's
/// `Resources/themes`, looked for upwards from the executable (SwiftPM does not bundle resources
/// outside a target). NO_COLOR selects the monochrome theme.
enum ThemeLocator {
    static func directories() -> [String] {
        let environment = ProcessInfo.processInfo.environment
        let configHome = environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"] ?? ".") + "/.config"
        var directories = [configHome + "/pwtui/themes"]
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0 ..< 5 {
            directories.append(directory.appendingPathComponent("Resources/themes").path)
            directories.append(directory.appendingPathComponent("share/pwtui/themes").path)
            directory = directory.deletingLastPathComponent()
        }
        return directories
    }

    /// Every theme name found, the built-in three first.
    static func available() -> [String] {
        var names = ["default", "high-contrast", "monochrome"]
        for directory in directories() {
            for file in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [] where file.hasSuffix(".theme") {
                let name = String(file.dropLast(6))
                if !names.contains(name) { names.append(name) }
            }
        }
        return names
    }

    static func current(named name: String = "default") -> Theme {
        if ProcessInfo.processInfo.environment["NO_COLOR"].map({ !$0.isEmpty }) == true { return .monochrome }
        return Theme.load(named: name, from: directories()) { StandardError.say("pwtui: " + $0) }
    }
}
