/// Groups of domains that share one login, as Apple publishes them for password managers
/// (password-manager-resources' shared-credentials.json: `envato.com` and `themeforest.net`,
/// `sony.com` and `playstation.com`): equivalent domains built in, on unless the user turns a
/// group off (`pwtui equivalents off DOMAIN`). A group in which the user named any domain as off
/// is left out whole.
public enum BuiltInEquivalents {
    public static let groups: [[String]] = data.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }

    /// The user's groups with the built-in ones that are on. Most built-in groups share no domain
    /// with the user's and are simply added; one that does is joined with it, as `add` joins.
    /// The user's modification time is kept: built-in groups are not a change to the vault.
    public static func combined(with user: EquivalentDomains, disabled: Set<String>) -> EquivalentDomains {
        let userDomains = Set(user.groups.joined())
        var separate: [[String]] = []
        var joined = user
        for group in groups where !group.contains(where: disabled.contains) {
            if group.contains(where: userDomains.contains) {
                joined.add(group, at: user.modified)
            } else {
                separate.append(group)
            }
        }
        return EquivalentDomains(groups: (joined.groups + separate).sorted { $0[0] < $1[0] }, modified: user.modified)
    }

    /// Whether `group` (as listed) comes from the built-in list rather than the user.
    public static func isBuiltIn(_ group: [String]) -> Bool {
        groups.contains(group)
    }
}
