import Platform

/// What each CSV export's columns mean, by header name: one table per format, so reading them
/// all is one loop (`CSVImport`) and a new format is a new table.
///
/// Detection reads the header only, and by exact sets: a layout fits when every column it
/// requires is there and every column of the header is one it knows. Of several that fit, the one
/// knowing the fewest columns (the tightest) wins. Exact sets matter because other managers write
/// headers that contain another's: NordPass's starts with Chrome's five columns and adds card
/// columns, 1Password 4's five are Safari's without OTPAuth, Padlock's is Chrome's plus tags. Read
/// as the wrong manager's, such a file puts card numbers in the notes or misses columns, so a
/// header that fits no layout exactly is refused, naming the manager when `UnsupportedExport`
/// knows it; `--format` still reads a header with extra columns (kept in the notes by name).
/// Column order is never assumed (exports reorder and add columns across versions: Chrome added
/// `note`, KeePassXC 2.7 `TOTP`, `Icon` and the times), except where two managers write the same
/// set (`signature`).
struct CSVLayout: Sendable {
    enum Role: Sendable, Equatable {
        case title, location, username, password, notes, oneTimeKey, created, modified, lastUsed
        /// Bitwarden's `type`: `login`, or something that is not imported.
        case kind
        /// Bitwarden's `fields`: `name: value` lines, text fields.
        case customFields
        /// pwtui's `secret fields`: `name: value` lines, secret fields (the values stay in the arena).
        case secretFields
        /// pwtui's `secret field history`: `TIME NAME: value` lines, earlier values of secret fields.
        case secretFieldHistory
        /// pwtui's `kind`: empty for a login, else `note`, `card` or `identity`.
        case itemKind
        /// Kept in the notes under this name (a folder, tags).
        case extra(String)
        /// Known and not needed (an icon, a favourite flag, a form's action URL).
        case ignored
    }

    let format: ImportFormat
    /// Lowercased header name → what the column is.
    let columns: [String: Role]
    /// The columns that identify the format (lowercased).
    let required: Set<String>
    /// Several locations in one field, separated by this (Bitwarden: a comma, pwtui: a newline).
    var locationSeparator: Character? = nil
    /// How the time columns are written.
    var time: @Sendable (String) -> Timestamp? = ImportedTime.iso8601
    /// The header exactly, in order, when only the order tells this layout from another's
    /// (1Password 4 writes Safari's columns but for OTPAuth, in its own order).
    var signature: [String]? = nil
    /// Text cells may carry the quote pwtui's export puts before a formula-like start
    /// (`CSVFormulaGuard`): the formats pwtui writes.
    var formulaGuarded = false

    static let all: [CSVLayout] = [
        CSVLayout(
            format: .chrome,
            columns: [
                "name": .title, "url": .location, "username": .username, "password": .password,
                "note": .notes,
            ],
            required: ["name", "url", "username", "password"]),
        CSVLayout(
            format: .firefox,
            columns: [
                "url": .location, "username": .username, "password": .password, "httprealm": .ignored,
                "formactionorigin": .ignored, "guid": .ignored, "timecreated": .created,
                "timelastused": .lastUsed, "timepasswordchanged": .modified,
            ],
            required: ["url", "username", "password", "httprealm"], time: ImportedTime.epochMilliseconds),
        // Firefox's export before version 79 came from the Password Exporter add-on; the shape of
        // pass-import's tests/assets/db/firefox.csv.
        CSVLayout(
            format: .firefox,
            columns: [
                "hostname": .location, "username": .username, "password": .password,
                "formsubmiturl": .ignored, "httprealm": .ignored, "usernamefield": .ignored,
                "passwordfield": .ignored,
            ],
            required: ["hostname", "username", "password"]),
        CSVLayout(
            format: .safari,
            columns: [
                "title": .title, "url": .location, "username": .username, "password": .password,
                "notes": .notes, "otpauth": .oneTimeKey,
            ],
            required: ["title", "url", "username", "password"]),
        CSVLayout(
            format: .onePasswordCSV,
            columns: [
                "title": .title, "url": .location, "website": .location, "username": .username,
                "password": .password, "otpauth": .oneTimeKey, "favorite": .ignored,
                "archived": .extra("archived"), "tags": .extra("tags"), "notes": .notes,
            ],
            required: ["title", "username", "password", "favorite", "archived"]),
        // 1Password 4 (File → Export → All Items, CSV, "common fields"): the shape of pass-import's
        // tests/assets/db/1password4.csv.
        CSVLayout(
            format: .onePasswordCSV,
            columns: [
                "title": .title, "notes": .notes, "username": .username, "password": .password,
                "url": .location,
            ],
            required: ["title", "notes", "username", "password", "url"],
            signature: ["title", "notes", "username", "password", "url"]),
        CSVLayout(
            format: .lastPassCSV,
            columns: [
                "url": .location, "username": .username, "password": .password, "totp": .oneTimeKey,
                "extra": .notes, "name": .title, "grouping": .extra("group"), "fav": .ignored,
            ],
            required: ["url", "username", "password", "extra", "grouping"]),
        CSVLayout(
            format: .bitwardenCSV,
            columns: [
                "folder": .extra("folder"), "favorite": .ignored, "type": .kind, "name": .title,
                "notes": .notes, "fields": .customFields, "reprompt": .ignored,
                "login_uri": .location, "login_username": .username,
                "login_password": .password, "login_totp": .oneTimeKey,
                "collections": .extra("collections"),
            ],
            required: ["type", "name", "login_uri", "login_username", "login_password"], locationSeparator: ","),
        CSVLayout(
            format: .keepassxcCSV,
            columns: [
                "group": .extra("group"), "title": .title, "username": .username,
                "password": .password, "url": .location, "notes": .notes, "totp": .oneTimeKey,
                "icon": .ignored, "last modified": .modified, "created": .created,
                "tags": .extra("tags"),
            ],
            required: ["group", "title", "username", "password", "url", "notes"], formulaGuarded: true),
        CSVLayout(
            format: .csv,
            columns: [
                "title": .title, "services": .location, "username": .username, "password": .password,
                "notes": .notes, "otpauth": .oneTimeKey, "created": .created, "modified": .modified,
                "fields": .customFields, "secret fields": .secretFields, "last used": .lastUsed,
                "secret field history": .secretFieldHistory, "kind": .itemKind,
            ],
            required: ["title", "services", "username", "password"], locationSeparator: "\n", formulaGuarded: true),
    ]

    static func layout(of format: ImportFormat) -> CSVLayout? {
        all.first { $0.format == format }
    }

    /// The layout that fits `header` exactly, or nil. Columns without a name (a trailing comma on
    /// the header line) are not counted.
    static func detect(_ header: [String]) -> CSVLayout? {
        let named = header.filter { !$0.isEmpty }
        let names = Set(named)
        let fitting = all.filter { layout in
            if let signature = layout.signature { return signature == named }
            return layout.required.isSubset(of: names) && names.allSatisfy { layout.columns[$0] != nil }
        }
        // A signature is the tightest fit there is; otherwise the layout knowing the fewest columns.
        return fitting.min { a, b in
            (a.signature == nil ? 1 : 0, a.columns.count) < (b.signature == nil ? 1 : 0, b.columns.count)
        }
    }

    /// The header as `--format` wants it, for messages.
    var requiredText: String {
        required.sorted().joined(separator: ",")
    }
}
