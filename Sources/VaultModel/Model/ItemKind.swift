/// What an item is (format 1.3): a login, or one of the items other managers keep beside logins
/// and an import brings along — a secure note, a payment card, an identity. The kind changes
/// nothing a credential may hold (a card's number and code are secret fields, its expiry and
/// brand text fields); it says what the item is where it is listed, so that the picker can mark
/// a card as a card instead of as a login without a site.
///
/// An SSH key (issue 27) is the one kind the agent treats apart: its secret is a private key
/// (an Ed25519 seed, an RSA or ECDSA key) that `get` and git's helper never hand out as a
/// password for a host (it has no services: its hosts are a text field, `SSHKeyItem`), and `pwtui agent` serves it over the
/// ssh-agent protocol. It needs no new format: a version without it reads the kind as a login
/// (`PayloadCodec`), which is harmless: the item keeps its title, fields and secret.
///
/// A keyring item (issue 40) is what a program stored through the Secret Service
/// (`KeyringItem`): Chromium's cookie key, a token `keyring` or `secret-tool` kept. Like an SSH key
/// it has no services, so no service request ever matches it.
public enum ItemKind: UInt8, Sendable, Equatable, CaseIterable, Codable {
    case login = 0
    case note = 1
    case card = 2
    case identity = 3
    case sshKey = 4
    case keyring = 5

    /// The picker's mark after the match kind, beside `[code]`; nil for a login.
    public var marker: String? {
        switch self {
        case .login: nil
        case .note: "[note]"
        case .card: "[card]"
        case .identity: "[identity]"
        case .sshKey: "[ssh]"
        case .keyring: "[keyring]"
        }
    }

    /// In pwtui's CSV export's `kind` column: "", "note", "card", "identity", "ssh-key", "keyring".
    public var token: String {
        switch self {
        case .login: ""
        case .sshKey: "ssh-key"
        default: String(describing: self)
        }
    }

    /// For people: "secure note", "card", "identity".
    public var name: String {
        switch self {
        case .login: "login"
        case .note: "secure note"
        case .card: "card"
        case .identity: "identity"
        case .sshKey: "SSH key"
        case .keyring: "keyring item"
        }
    }
}
