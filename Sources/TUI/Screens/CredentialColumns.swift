import VaultModel
import ServiceMatching

// The picker's columns — title, username, and the service with how it matched — sized from what
// they show, the way htop's and tig's views are: a column is as wide as its widest cell in view,
// up to a cap, so a list of short titles has no wide gaps at 250 columns and one long title does
// not push everything else off the screen.
//
// The match kind ("(exact-url)") says why an entry is offered; it is never cut. When the line is
// too narrow for everything, the service gives way first (down to a few columns), then the
// username, then the title, each down to a small minimum. Still too narrow (40 columns), the kind
// and the code mark take their short forms ("(host)", "[c]") so that the service keeps a few
// columns: which site an entry is for matters more than how the kind is spelt.
//
// Widths come from the entries in the window (at most a screen of rows), never from the whole
// list: drawing costs the height of the window, and typing into 100,000 credentials stays as
// fast as before. Columns may move a little as the window scrolls; they always fit what is seen.
// All widths are terminal columns (`TextWidth`), so 日本語 takes six.

/// Column widths for the entries in view at one terminal width.
struct CredentialColumns: Equatable {
    /// Columns of the title, the selection mark ("▸ ") included.
    let title: Int
    /// Columns of the username; 0 when no entry in view has one (and no gap is left for it).
    let username: Int
    /// Where the username starts, and where the service starts.
    let usernameStart: Int
    let serviceStart: Int
    /// The kind and the code mark in their short forms (`Cells.how(compact:)`).
    let compact: Bool

    static let mark = 2
    static let gap = 2
    /// The least each column gives way to (or less, when its widest cell is narrower).
    static let minimumTitle = 10
    static let minimumUsername = 8
    static let minimumService = 6

    /// What one entry shows in each column.
    struct Cells {
        let title: String
        let username: String
        let service: String
        let match: MatchKind?
        let hasCode: Bool
        /// "[note]", "[card]", "[identity]"; nil for a login.
        let itemMarker: String?
        /// What an audit found that the list marks: weak, reused, breached (not old: every
        /// password gets old, and the detail screen says it).
        let findings: [AuditFinding.Kind]

        init(_ entry: RankedCredential, findings: Set<AuditFinding.Kind> = []) {
            self.findings = findings.filter { $0 != .old }.sorted()
            itemMarker = entry.credential.kind.marker
            title = entry.credential.displayTitle
            username = entry.credential.username
            service = (entry.matchedService ?? entry.credential.services.first)?.text ?? ""
            match = entry.match
            hasCode = entry.credential.totp != nil
        }

        /// " (exact-url)", or "" for an entry that did not match; " [code]" after it when the
        /// credential has a one-time code (^T hands that over), then what the item is when it is not
        /// a login (" [card]"), then what an audit found (" [weak, breached]"). `compact`:
        /// " (url)", " [c]", " [!]"; the item's mark has one form.
        func how(compact: Bool) -> String {
            let kind = match.map { " (\(compact ? Self.shortName($0) : $0.rawValue))" } ?? ""
            let audit =
                findings.isEmpty ? "" : compact ? " [!]" : " [" + findings.map(\.rawValue).joined(separator: ", ") + "]"
            return kind + (hasCode ? (compact ? " [c]" : " [code]") : "") + (itemMarker.map { " " + $0 } ?? "") + audit
        }

        static func shortName(_ kind: MatchKind) -> String {
            switch kind {
            case .exactURL: "url"
            case .pathPrefix: "path"
            case .sameHost: "host"
            case .parentDomain: "parent"
            case .wildcard: "wild"
            case .sameSite: "site"
            case .equivalent: "equiv"
            }
        }
    }

    init(_ cells: [Cells], width: Int) {
        var titleNeed = 0, usernameNeed = 0, serviceNeed = 0, fullNeed = 0, compactNeed = 0
        for cell in cells {
            titleNeed = max(titleNeed, Self.mark + TextWidth.columns(of: cell.title))
            usernameNeed = max(usernameNeed, TextWidth.columns(of: cell.username))
            serviceNeed = max(serviceNeed, TextWidth.columns(of: cell.service))
            fullNeed = max(fullNeed, TextWidth.columns(of: cell.how(compact: false)))
            compactNeed = max(compactNeed, TextWidth.columns(of: cell.how(compact: true)))
        }
        // The short forms only where the full ones leave the service fewer than its minimum.
        let least =
            Self.mark + min(titleNeed - Self.mark, Self.minimumTitle) + min(usernameNeed, Self.minimumUsername)
            + Self.gap + (usernameNeed > 0 ? Self.gap : 0)
        compact = least + fullNeed + min(serviceNeed, Self.minimumService) > width
        let howNeed = compact ? compactNeed : fullNeed
        // The caps: a share of the width, so wide terminals give long titles more room.
        var title = min(titleNeed, max(Self.minimumTitle + Self.mark, width * 2 / 5))
        var username = min(usernameNeed, max(Self.minimumUsername, width * 3 / 10))
        let gaps = Self.gap + (username > 0 ? Self.gap : 0)
        // What the last column needs at least: its kind whole, and a little of the service.
        let lastNeed = howNeed + min(serviceNeed, Self.minimumService)
        var excess = title + username + gaps + lastNeed - width
        if excess > 0 {
            let give = min(excess, max(username - min(usernameNeed, Self.minimumUsername), 0))
            username -= give
            excess -= give
        }
        if excess > 0 {
            let give = min(excess, max(title - min(titleNeed, Self.minimumTitle + Self.mark), 0))
            title -= give
        }
        self.title = title
        self.username = username
        usernameStart = title + Self.gap
        serviceStart = username > 0 ? usernameStart + username + Self.gap : usernameStart
    }
}
