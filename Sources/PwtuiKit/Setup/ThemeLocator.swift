import Foundation
import ServiceMatching
import TUI

/// Where themes come from: the user's own (`$XDG_CONFIG_HOME/pwtui/themes`), then the ones built
/// into the binary (Resources/themes, embedded), so pwtui finds its themes wherever it is run
/// from. NO_COLOR selects the monochrome theme. Warnings go to stderr, which waits while a screen
/// is open (`HeldMessages`).
enum ThemeLocator {
    static func directories(environment: [String: String] = ProcessInfo.processInfo.environment) -> [String] {
        let configHome = environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"] ?? ".") + "/.config"
        return [configHome + "/pwtui/themes"]
    }

    /// Every theme name: the built-in ones first, then the user's.
    static func available() -> [String] {
        var names = Theme.builtInNames
        for directory in directories() {
            for file in ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted() where file.hasSuffix(".theme") {
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
