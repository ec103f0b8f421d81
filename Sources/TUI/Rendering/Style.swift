/// What a piece of text is, not how it looks: themes decide the look (tig and htop do the same).
public enum StyleRole: String, CaseIterable, Sendable {
    case normal, title, header, section, selected, dim, match, input, help, error, warning
}

/// How a role looks in a theme.
public struct Style: Equatable, Sendable {
    public enum Color: String, CaseIterable, Sendable {
        case `default`, black, red, green, yellow, blue, magenta, cyan, white
    }

    public var foreground: Color
    public var background: Color
    public var bold: Bool
    public var reverse: Bool
    public var underline: Bool
    public var dim: Bool

    public init(
        foreground: Color = .default, background: Color = .default,
        bold: Bool = false, reverse: Bool = false, underline: Bool = false, dim: Bool = false
    ) {
        self.foreground = foreground
        self.background = background
        self.bold = bold
        self.reverse = reverse
        self.underline = underline
        self.dim = dim
    }
}
