/// The exports pwtui reads, by the name `--format` takes.
public enum ImportFormat: String, CaseIterable, Sendable {
    case chrome
    case firefox
    case safari
    case bitwardenCSV = "bitwarden-csv"
    case bitwardenJSON = "bitwarden-json"
    case keepassxcCSV = "keepassxc-csv"
    case keepassXML = "keepass-xml"
    case onePasswordCSV = "1password-csv"
    case lastPassCSV = "lastpass-csv"
    /// 1Password 8's `.1pux` (a zip archive holding `export.data`).
    case onePasswordPux = "1password-1pux"
    case pass
    /// pwtui's own CSV (`pwtui export --format csv`).
    case csv

    /// For messages and `--help`.
    public var publisher: String {
        switch self {
        case .chrome: return "Chrome, Edge or Brave CSV"
        case .firefox: return "Firefox CSV"
        case .safari: return "Safari / Apple Passwords CSV"
        case .bitwardenCSV: return "Bitwarden CSV"
        case .bitwardenJSON: return "Bitwarden JSON (unencrypted)"
        case .keepassxcCSV: return "KeePassXC CSV"
        case .keepassXML: return "KeePass 2 XML"
        case .onePasswordCSV: return "1Password CSV"
        case .lastPassCSV: return "LastPass CSV"
        case .onePasswordPux: return "1Password .1pux"
        case .pass: return "pass / gopass store directory"
        case .csv: return "pwtui CSV"
        }
    }

    public static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }
}
