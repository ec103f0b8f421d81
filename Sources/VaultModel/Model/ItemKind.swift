/// What an item is (format 1.3): a login, or one of the items other managers keep beside logins
/// and an import brings along — a secure note, a payment card, an identity. The kind changes
/// nothing a credential may hold (a card's number and code are secret fields, its expiry and
/// brand text fields); it says what the item is where it is listed, so that the picker can mark
/// a card as a card instead of as a login without a site.
public enum ItemKind: UInt8, Sendable, Equatable, CaseIterable {
    case login = 0
    case note = 1
    case card = 2
    case identity = 3

    /// The picker's mark after the match kind, beside `[code]`; nil for a login.
    public var marker: String? {
        switch self {
        case .login: nil
        case .note: "[note]"
        case .card: "[card]"
        case .identity: "[identity]"
        }
    }

    /// In pwtui's CSV export's `kind` column: "", "note", "card", "identity".
    public var token: String {
        self == .login ? "" : String(describing: self)
    }

    /// For people: "secure note", "card", "identity".
    public var name: String {
        switch self {
        case .login: "login"
        case .note: "secure note"
        case .card: "card"
        case .identity: "identity"
        }
    }
}
