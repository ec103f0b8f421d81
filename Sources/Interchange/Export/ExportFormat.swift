/// The exports pwtui writes, by the name `--format` takes.
public enum ExportFormat: String, CaseIterable, Sendable {
    /// Bitwarden's unencrypted JSON: every field pwtui has but the rank (all services, TOTP,
    /// times, the password history); Bitwarden, Vaultwarden, Proton Pass and others import it.
    case bitwardenJSON = "bitwarden-json"
    /// pwtui's own CSV: every field but the rank and the history, one row per credential.
    case csv
    /// KeePassXC's CSV: one URL per credential (the others go in the notes), TOTP, times.
    case keepassxcCSV = "keepassxc-csv"

    public static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }
}
