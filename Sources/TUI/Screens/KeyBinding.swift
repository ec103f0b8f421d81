/// A key binding as data: which keys, what the help bar calls them, what they do. Screens keep
/// a table of these, so the help bar writes itself and cannot drift from the behaviour
/// (lazygit's approach).
public struct KeyBinding<Action: Sendable>: Sendable {
    public let keys: [Key]
    /// How the help bar names the keys ("Tab", "↑↓").
    public let label: String
    public let help: String
    public let action: Action
    /// Bindings that work but need no space in the help bar.
    public let inHelpBar: Bool

    public init(_ keys: [Key], _ label: String, _ help: String, _ action: Action, inHelpBar: Bool = true) {
        self.keys = keys
        self.label = label
        self.help = help
        self.action = action
        self.inHelpBar = inHelpBar
    }

    /// The action bound to `key` in `bindings`.
    public static func action(for key: Key, in bindings: [KeyBinding]) -> Action? {
        bindings.first { $0.keys.contains(key) }?.action
    }

    /// "Enter choose  Tab show all  Esc cancel", cut to `width` columns.
    public static func helpBar(_ bindings: [KeyBinding]) -> String {
        bindings.filter(\.inHelpBar).map { "\($0.label) \($0.help)" }.joined(separator: "  ")
    }
}
