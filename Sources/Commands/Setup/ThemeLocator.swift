import FoundationEssentials
import Platform
import ServiceMatching
import TUI

/// Where themes come from: the user's own (`$XDG_CONFIG_HOME/pwtui/themes`), then the ones built
/// into the binary (Resources/themes, embedded), so pwtui finds its themes wherever it is run
/// from. NO_COLOR selects the monochrome theme. Warnings go to stderr, which waits while a screen
/// is open (`HeldMessages`).
enum ThemeLocator {
    static func directories(environment: Environment = .process) -> [String] {
        [Paths(environment: environment).themesDirectory]
    }

    /// Every theme name: the built-in ones first, then the user's.
    static func available(environment: Environment = .process) -> [String] {
        var names = Theme.builtInNames
        for directory in directories(environment: environment) {
            for file in ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
            where file.hasSuffix(".theme") {
                let name = String(file.dropLast(6))
                if !names.contains(name) { names.append(name) }
            }
        }
        return names
    }

    /// The theme `name`; a theme that does not load is said on `context`'s stderr, and the
    /// standard one used.
    static func current(named name: String = "default", in context: CommandContext) -> Theme {
        if context.environment.isSet("NO_COLOR") { return .monochrome }
        return Theme.load(named: name, from: directories(environment: context.environment)) {
            context.streams.say("pwtui: " + $0)
        }
    }
}
