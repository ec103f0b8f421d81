import FoundationEssentials
import Platform
import VaultModel

/// A colour scheme: a style for every role. Themes are text files (`Resources/themes/*.theme`,
/// embedded in the binary, and `$XDG_CONFIG_HOME/pwtui/themes/`), one role per line:
///
///     # comment
///     selected = black cyan bold
///     dim      = default default dim
///
/// foreground, background, then any of bold, reverse, underline, dim. Roles a file leaves out
/// keep the default theme's style.
public struct Theme: Equatable, Sendable {
    public var name: String
    public var styles: [StyleRole: Style]
    /// False for the monochrome theme: the backend then uses attributes only.
    public var usesColor: Bool

    public func style(_ role: StyleRole) -> Style {
        styles[role] ?? Style()
    }

    /// The built-in default, also what a broken theme file falls back to.
    public static let standard = Theme(
        name: "default",
        styles: [
            .normal: Style(),
            .title: Style(foreground: .cyan, bold: true),
            .header: Style(foreground: .yellow, bold: true),
            .section: Style(foreground: .magenta, bold: true),
            .selected: Style(foreground: .black, background: .cyan, bold: true),
            .dim: Style(dim: true),
            .match: Style(foreground: .green),
            .input: Style(foreground: .white, bold: true),
            .help: Style(foreground: .black, background: .white),
            .error: Style(foreground: .red, bold: true),
            .warning: Style(foreground: .yellow),
        ], usesColor: true)

    /// No colours at all, for NO_COLOR and terminals without colours: reverse video marks the
    /// selection, bold the headings.
    public static let monochrome = Theme(
        name: "monochrome",
        styles: [
            .normal: Style(), .title: Style(bold: true), .header: Style(bold: true), .section: Style(underline: true),
            .selected: Style(reverse: true), .dim: Style(dim: true), .match: Style(), .input: Style(bold: true),
            .help: Style(reverse: true), .error: Style(bold: true), .warning: Style(underline: true),
        ], usesColor: false)

    public struct ParseError: Error, Equatable, CustomStringConvertible {
        public let file: String
        public let line: Int
        public let problem: String
        public var description: String { "\(file):\(line): \(problem); using the default theme" }

        public init(file: String, line: Int, problem: String) {
            self.file = file
            self.line = line
            self.problem = problem
        }
    }

    /// Parses a theme file's text; `file` names it in errors.
    public static func parse(_ text: String, name: String, file: String) throws(ParseError) -> Theme {
        var theme = Theme.standard
        theme.name = name
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            guard !line.allSatisfy(\.isWhitespace) else { continue }
            let parts = line.split(separator: "=", maxSplits: 1)
            guard parts.count == 2 else {
                throw ParseError(
                    file: file, line: index + 1, problem: "expected 'role = foreground background [attributes]'")
            }
            let roleName = parts[0].trimmingSpaces()
            guard let role = StyleRole(rawValue: roleName) else {
                throw ParseError(
                    file: file, line: index + 1,
                    problem:
                        "unknown role '\(roleName)' (known: \(StyleRole.allCases.map(\.rawValue).joined(separator: ", ")))"
                )
            }
            let words = parts[1].split(whereSeparator: \.isWhitespace).map(String.init)
            guard words.count >= 2, let foreground = Style.Color(rawValue: words[0]),
                let background = Style.Color(rawValue: words[1])
            else {
                throw ParseError(
                    file: file, line: index + 1,
                    problem: "expected two colours (\(Style.Color.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            var style = Style(foreground: foreground, background: background)
            for attribute in words.dropFirst(2) {
                switch attribute {
                case "bold": style.bold = true
                case "reverse": style.reverse = true
                case "underline": style.underline = true
                case "dim": style.dim = true
                default: throw ParseError(file: file, line: index + 1, problem: "unknown attribute '\(attribute)'")
                }
            }
            theme.styles[role] = style
        }
        return theme
    }

    /// The themes inside the binary (Resources/themes, embedded), by name.
    public static var builtInFiles: [String: String] { BuiltInThemes.files }

    /// The built-in themes' names, the default first.
    public static var builtInNames: [String] {
        [standard.name] + builtInFiles.keys.filter { $0 != standard.name }.sorted()
    }

    /// Loads the theme `name` from the first of `directories` that has `name.theme` (the user's
    /// own themes, which may replace a built-in one), else from the built-in themes. A broken file
    /// gives the default theme and a warning; an unknown name, the default theme and a warning.
    public static func load(named name: String, from directories: [String], warn: (String) -> Void) -> Theme {
        if name == "monochrome" { return .monochrome }
        for directory in directories {
            let path = directory + "/" + name + ".theme"
            let text: String?
            do {
                text = try RegularFile.textIfPresent(path, limit: 1 << 20)
            } catch {
                // A FIFO, a device or a huge file where a theme should be: said, never waited on.
                warn("\(error); using the default theme")
                return .standard
            }
            guard let text else { continue }
            return parseOrWarn(text, name: name, file: path, warn: warn)
        }
        if let text = builtInFiles[name] {
            return parseOrWarn(text, name: name, file: "built-in theme '\(name)'", warn: warn)
        }
        warn("no theme named '\(name)'; using the default theme")
        return .standard
    }

    private static func parseOrWarn(_ text: String, name: String, file: String, warn: (String) -> Void) -> Theme {
        do {
            return try parse(text, name: name, file: file)
        } catch {
            warn(error.description)
            return .standard
        }
    }
}

extension Theme.ParseError: ExitStatusReporting {
    /// A theme file the user wrote, to correct (the picker goes on with the default theme).
    public var exitStatus: ExitStatus { .usage }
}
