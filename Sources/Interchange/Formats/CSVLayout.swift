import Platform

/// What each CSV export's columns mean, by header name: one table per format, so reading them
/// all is one loop (`CSVImport`) and a new format is a new table.
///
/// Detection reads the header only. A layout fits when every column it requires is there; of
/// several that fit (a 1Password file also has every column Safari requires), the one that knows
/// the most of the file's columns wins. Column order is never assumed: exports have reordered
/// and added columns across versions (Chrome added `note`, KeePassXC 2.7 added `TOTP`, `Icon`
/// and the times), and the header says where each one is.
struct CSVLayout: Sendable {
    enum Role: Sendable, Equatable {
        case title, location, username, password, notes, oneTimeKey, created, modified, lastUsed
        /// Bitwarden's `type`: `login`, or something that is not imported.
        case kind
        /// Bitwarden's `fields`: `name: value` lines.
        case customFields
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

    static let all: [CSVLayout] = [
        CSVLayout(format: .chrome, columns: ["name": .title, "url": .location, "username": .username, "password": .password,
                                             "note": .notes],
                  required: ["name", "url", "username", "password"]),
        CSVLayout(format: .firefox, columns: ["url": .location, "username": .username, "password": .password, "httprealm": .ignored,
                                              "formactionorigin": .ignored, "guid": .ignored, "timecreated": .created,
                                              "timelastused": .lastUsed, "timepasswordchanged": .modified],
                  required: ["url", "username", "password", "httprealm"], time: ImportedTime.epochMilliseconds),
        CSVLayout(format: .safari, columns: ["title": .title, "url": .location, "username": .username, "password": .password,
                                             "notes": .notes, "otpauth": .oneTimeKey],
                  required: ["title", "url", "username", "password"]),
        CSVLayout(format: .onePasswordCSV, columns: ["title": .title, "url": .location, "website": .location, "username": .username,
                                                     "password": .password, "otpauth": .oneTimeKey, "favorite": .ignored,
                                                     "archived": .extra("archived"), "tags": .extra("tags"), "notes": .notes],
                  required: ["title", "username", "password", "favorite", "archived"]),
        CSVLayout(format: .lastPassCSV, columns: ["url": .location, "username": .username, "password": .password, "totp": .oneTimeKey,
                                                  "extra": .notes, "name": .title, "grouping": .extra("group"), "fav": .ignored],
                  required: ["url", "username", "password", "extra", "grouping"]),
        CSVLayout(format: .bitwardenCSV, columns: ["folder": .extra("folder"), "favorite": .ignored, "type": .kind, "name": .title,
                                                   "notes": .notes, "fields": .customFields, "reprompt": .ignored,
                                                   "login_uri": .location, "login_username": .username,
                                                   "login_password": .password, "login_totp": .oneTimeKey,
                                                   "collections": .extra("collections")],
                  required: ["type", "name", "login_uri", "login_username", "login_password"], locationSeparator: ","),
        CSVLayout(format: .keepassxcCSV, columns: ["group": .extra("group"), "title": .title, "username": .username,
                                                   "password": .password, "url": .location, "notes": .notes, "totp": .oneTimeKey,
                                                   "icon": .ignored, "last modified": .modified, "created": .created],
                  required: ["group", "title", "username", "password", "url", "notes"]),
        CSVLayout(format: .csv, columns: ["title": .title, "services": .location, "username": .username, "password": .password,
                                          "notes": .notes, "otpauth": .oneTimeKey, "created": .created, "modified": .modified],
                  required: ["title", "services", "username", "password"], locationSeparator: "\n"),
    ]

    static func layout(of format: ImportFormat) -> CSVLayout? {
        all.first { $0.format == format }
    }

    /// The layout that fits `header` best, or nil.
    static func detect(_ header: [String]) -> CSVLayout? {
        let names = Set(header)
        let fitting = all.filter { $0.required.isSubset(of: names) }
        return fitting.max { a, b in a.known(in: names) < b.known(in: names) }
    }

    private func known(in names: Set<String>) -> Int {
        names.filter { columns[$0] != nil }.count
    }

    /// The header as `--format` wants it, for messages.
    var requiredText: String {
        required.sorted().joined(separator: ",")
    }
}
