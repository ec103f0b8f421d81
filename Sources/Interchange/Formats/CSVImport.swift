import Platform
import VaultModel

/// Reads a CSV export with its layout's table: the header says where each column is, every row
/// becomes an entry.
///
/// Rows are read as leniently as Python's `csv` (what pass-import, Bitwarden and KeePassXC read
/// with): a row shorter than the header is padded with empty fields, since exporters leave out
/// trailing empty cells (pass-import's chrome.csv has four fields under a five-column header where
/// there is no note). A row longer than the header is read when its extra fields are empty (a
/// trailing comma); with text in them it is refused by line, because the file is damaged or the
/// format guessed wrong, and reading on could put a password in a title.
enum CSVImport {
    static func read(_ bytes: UnsafeRawBufferPointer, format: ImportFormat?, arena: SecretArena) throws -> ImportBatch {
        try entries(try CSVReader.records(bytes, into: arena), format: format, arena: arena)
    }

    /// The entries of records already read into `arena`: the file itself is no longer needed
    /// here, so a caller holding it can let it go first (`ImportReader`: a 100 MB export is then
    /// never held three times, as file, fields and entries' text).
    static func entries(_ records: [CSVRecord], format: ImportFormat?, arena: SecretArena) throws -> ImportBatch {
        guard let headerRecord = records.first else { throw ImportFailure("the file is empty") }
        let header = headerRecord.fields.map { field in
            arena.withBytes(of: field) { String(decoding: $0, as: UTF8.self) }.trimmingSpaces().lowercased()
        }
        let layout = try choose(format, header: header, line: headerRecord.line)
        if let repeated = Dictionary(grouping: header.filter { !$0.isEmpty }, by: { $0 }).first(where: {
            $0.value.count > 1
        }) {
            throw ImportFailure(line: headerRecord.line, "the header names the column '\(repeated.key)' twice")
        }
        let roles = header.map { layout.columns[$0] }
        let result = ImportBatch(format: layout.format, secrets: arena)
        // One entry per record at most: sized once rather than doubled (issue 23).
        result.entries.reserveCapacity(records.count - 1)
        for record in records.dropFirst() {
            // A lone empty field is a blank line some writers add at the end.
            if record.fields.count == 1, record.fields[0].count == 0, header.count > 1 { continue }
            guard record.fields.count <= header.count || record.fields[header.count...].allSatisfy({ $0.count == 0 })
            else {
                result.rejected.append(
                    ImportFailure(
                        line: record.line,
                        "\(record.fields.count) fields where the header has \(header.count), with text past the last column"
                    ))
                continue
            }
            result.entries.append(entry(record, roles: roles, header: header, layout: layout, batch: result))
        }
        guard !result.entries.isEmpty || !result.rejected.isEmpty else {
            throw ImportFailure(line: headerRecord.line, "the file has a header and no entries")
        }
        return result
    }

    private static func choose(_ format: ImportFormat?, header: [String], line: Int) throws -> CSVLayout {
        let exact = CSVLayout.detect(header)
        // Another manager's file is never read as one of these, --format or not: its extra
        // columns (a card's number and code) would land in the notes.
        if exact == nil, let manager = UnsupportedExport.csv(header) {
            throw ImportFailure(
                line: line,
                "the header is a \(manager) CSV's, which pwtui does not read (not supported); its columns would be misread as another manager's"
            )
        }
        if let format {
            let layouts = CSVLayout.all.filter { $0.format == format }
            guard let first = layouts.first else {
                throw ImportFailure("--format \(format.rawValue) is not a CSV format, but the file reads as CSV")
            }
            if let exact, exact.format == format { return exact }
            // The format's layout (of its versions) whose columns the header has.
            guard let layout = layouts.first(where: { $0.required.isSubset(of: header) }) else {
                let missing = first.required.subtracting(header)
                throw ImportFailure(
                    line: line,
                    "a \(format.publisher) header has the columns \(first.requiredText); this one lacks \(missing.sorted().joined(separator: ", "))"
                )
            }
            return layout
        }
        guard let layout = exact else {
            // The cells are not quoted: without a header, the first line is an entry, password included.
            let known = CSVLayout.all.map { "\($0.format.rawValue) (\($0.requiredText))" }.joined(separator: "; ")
            throw ImportFailure(
                line: line,
                "the first line (\(header.count) columns) is not a header pwtui knows; the CSV formats it reads have these columns (and no others): \(known); or give --format to read the columns a format knows and keep the others in the notes"
            )
        }
        return layout
    }

    private static func entry(
        _ record: CSVRecord, roles: [CSVLayout.Role?], header: [String], layout: CSVLayout, batch: ImportBatch
    ) -> ImportedEntry {
        var entry = ImportedEntry(origin: .line(record.line))
        let text = { (field: SecretReference) -> String in
            layout.formulaGuarded ? CSVFormulaGuard.unguarded(batch.text(field)) : batch.text(field)
        }
        // Where the notes lie: a secure note's text is read from there as a secret, not as text.
        var notesCell: SecretReference?
        // Past the header's width only empty fields remain (checked by the caller); short rows stop early.
        for (index, field) in record.fields.prefix(header.count).enumerated() where field.count > 0 {
            guard let role = roles[index] else {
                // A column no table knows: kept, under its own name.
                if !header[index].isEmpty { entry.extraFields.append((header[index], text(field))) }
                continue
            }
            switch role {
            case .password: entry.password = field
            case .oneTimeKey: entry.oneTimeKey = field
            case .title: entry.title = text(field)
            case .username: entry.username = text(field)
            case .notes:
                notesCell = field
                entry.notes = text(field)
            case .location:
                let written = text(field)
                if let separator = layout.locationSeparator {
                    entry.locations += written.split(separator: separator).map { $0.trimmingSpaces() }.filter {
                        !$0.isEmpty
                    }
                } else {
                    entry.locations.append(written.trimmingSpaces())
                }
            case .created: entry.created = layout.time(text(field))
            case .modified: entry.modified = layout.time(text(field))
            case .lastUsed: entry.lastUsed = layout.time(text(field))
            case .kind:
                let kind = text(field).lowercased()
                if kind == "note" {
                    entry.kind = .item(.note)
                } else if kind != "login" {
                    entry.kind = .other(kind.isEmpty ? "item" : kind)
                }
            case .customFields:
                for line in text(field).split(whereSeparator: \.isNewline) {
                    let parts = line.split(separator: ":", maxSplits: 1)
                    entry.textFields.append(
                        (
                            String(parts[0]).trimmingSpaces(),
                            parts.count > 1 ? String(parts[1]).trimmingSpaces() : ""
                        ))
                }
            case .secretFields:
                entry.secretFields += secretFieldLines(field, batch: batch)
            case .itemKind:
                let token = text(field).lowercased()
                if let kind = ItemKind.allCases.first(where: { $0.token == token }), kind != .login {
                    entry.kind = .item(kind)
                }
            case .secretFieldHistory:
                entry.fieldHistory += secretFieldHistoryLines(field, batch: batch)
            case .extra(let name):
                var value = text(field)
                // KeePassXC writes every group's path from the database's root group, whose name
                // varies ("Root" from the application, "Passwords" from keepassxc-cli db-create).
                if layout.format == .keepassxcCSV, name == "group" {
                    value = value.split(separator: "/", maxSplits: 1).dropFirst().first.map(String.init) ?? ""
                }
                if !value.isEmpty { entry.extraFields.append((name, value)) }
            case .ignored: break
            }
        }
        // LastPass writes secure notes (cards, addresses, …) as rows with the URL http://sn.
        if layout.format == .lastPassCSV, entry.locations == ["http://sn"] {
            entry.locations = []
            if let notesCell {
                LastPassNotes.read(notesCell, into: &entry, batch: batch)
            } else {
                entry.kind = .item(.note)
            }
        } else if layout.format == .bitwardenCSV, entry.kind == .item(.note) {
            // Bitwarden's CSV: a secure note's text, secret.
            entry.notes = ""
            if let notesCell { entry.secretFields.append(("note", notesCell)) }
        }
        return entry
    }

    /// `TIME NAME: value` lines of pwtui's `secret field history` cell (the time has colons, so it
    /// is cut off at its space first), each value a part of the cell where it lies.
    private static func secretFieldHistoryLines(_ cell: SecretReference, batch: ImportBatch) -> [(
        name: String, secret: SecretReference, replaced: Timestamp
    )] {
        var result: [(String, SecretReference, Timestamp)] = []
        batch.secrets.withBytes(of: cell) { bytes in
            var start = 0
            while start < bytes.count {
                let end = bytes[start...].firstIndex(of: 0x0A) ?? bytes.count
                defer { start = end + 1 }
                guard let space = bytes[start ..< end].firstIndex(of: UInt8(ascii: " ")),
                    let replaced = ImportedTime.iso8601(String(decoding: bytes[start ..< space], as: UTF8.self)),
                    let colon = bytes[space ..< end].firstIndex(of: UInt8(ascii: ":"))
                else { continue }
                let name = String(decoding: bytes[(space + 1) ..< colon], as: UTF8.self).trimmingSpaces()
                var valueStart = colon + 1
                if valueStart < end, bytes[valueStart] == UInt8(ascii: " ") { valueStart += 1 }
                guard !name.isEmpty else { continue }
                result.append((name, cell.part(valueStart ..< end), replaced))
            }
        }
        return result
    }

    /// `name: value` lines of a secret cell: each name as text, each value a part of the cell
    /// where it lies in the arena (never a `String`, never a copy).
    private static func secretFieldLines(_ cell: SecretReference, batch: ImportBatch) -> [(
        name: String, value: SecretReference
    )] {
        var result: [(String, SecretReference)] = []
        batch.secrets.withBytes(of: cell) { bytes in
            for line in LineRanges.of(bytes) {
                let slice = bytes[line]
                guard let colon = slice.firstIndex(of: UInt8(ascii: ":")) else { continue }
                let name = String(decoding: bytes[line.lowerBound ..< colon], as: UTF8.self).trimmingSpaces()
                var valueStart = colon + 1
                if valueStart < line.upperBound, bytes[valueStart] == UInt8(ascii: " ") { valueStart += 1 }
                guard !name.isEmpty else { continue }
                result.append((name, cell.part(valueStart ..< line.upperBound)))
            }
        }
        return result
    }
}
