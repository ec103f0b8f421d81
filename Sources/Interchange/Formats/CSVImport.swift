import VaultModel

/// Reads a CSV export with its layout's table: the header says where each column is, every row
/// becomes an entry. A row with another number of fields than the header is refused by line
/// (it is a damaged file or a wrong guess of the format, and importing it shifted would put a
/// password in a title).
enum CSVImport {
    static func read(_ bytes: UnsafeRawBufferPointer, format: ImportFormat?, arena: SecretArena) throws -> ImportBatch {
        let records = try CSVReader.records(bytes, into: arena)
        guard let headerRecord = records.first else { throw ImportFailure("the file is empty") }
        let header = headerRecord.fields.map { field in
            arena.withBytes(of: field) { String(decoding: $0, as: UTF8.self) }.trimmingSpaces().lowercased()
        }
        let layout = try choose(format, header: header, line: headerRecord.line)
        if let repeated = Dictionary(grouping: header.filter { !$0.isEmpty }, by: { $0 }).first(where: { $0.value.count > 1 }) {
            throw ImportFailure(line: headerRecord.line, "the header names the column '\(repeated.key)' twice")
        }
        let roles = header.map { layout.columns[$0] }
        let result = ImportBatch(format: layout.format, secrets: arena)
        for record in records.dropFirst() {
            guard record.fields.count == header.count else {
                // A lone empty field is a blank line some writers add at the end.
                if record.fields.count == 1, record.fields[0].count == 0 { continue }
                result.rejected.append(ImportFailure(line: record.line, "\(record.fields.count) fields where the header has \(header.count)"))
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
        if let format {
            guard let layout = CSVLayout.layout(of: format) else {
                throw ImportFailure("--format \(format.rawValue) is not a CSV format, but the file reads as CSV")
            }
            let missing = layout.required.subtracting(header)
            guard missing.isEmpty else {
                throw ImportFailure(line: line, "a \(format.publisher) header has the columns \(layout.requiredText); this one lacks \(missing.sorted().joined(separator: ", "))")
            }
            return layout
        }
        guard let layout = CSVLayout.detect(header) else {
            // The cells are not quoted: without a header, the first line is an entry, password included.
            let known = CSVLayout.all.map { "\($0.format.rawValue) (\($0.requiredText))" }.joined(separator: "; ")
            throw ImportFailure(line: line, "the first line (\(header.count) columns) is not a header pwtui knows; the CSV formats it reads have these columns: \(known); or give --format")
        }
        return layout
    }

    private static func entry(_ record: CSVRecord, roles: [CSVLayout.Role?], header: [String], layout: CSVLayout, batch: ImportBatch) -> ImportedEntry {
        var entry = ImportedEntry(origin: .line(record.line))
        for (index, field) in record.fields.enumerated() where field.count > 0 {
            guard let role = roles[index] else {
                // A column no table knows: kept, under its own name.
                if !header[index].isEmpty { entry.extraFields.append((header[index], batch.text(field))) }
                continue
            }
            switch role {
            case .password: entry.password = field
            case .oneTimeKey: entry.oneTimeKey = field
            case .title: entry.title = batch.text(field)
            case .username: entry.username = batch.text(field)
            case .notes: entry.notes = batch.text(field)
            case .location:
                let text = batch.text(field)
                if let separator = layout.locationSeparator {
                    entry.locations += text.split(separator: separator).map { $0.trimmingSpaces() }.filter { !$0.isEmpty }
                } else {
                    entry.locations.append(text.trimmingSpaces())
                }
            case .created: entry.created = layout.time(batch.text(field))
            case .modified: entry.modified = layout.time(batch.text(field))
            case .lastUsed: entry.lastUsed = layout.time(batch.text(field))
            case .kind:
                let kind = batch.text(field).lowercased()
                if kind != "login" { entry.kind = .other(kind.isEmpty ? "item" : kind) }
            case .customFields:
                for line in batch.text(field).split(whereSeparator: \.isNewline) {
                    let parts = line.split(separator: ":", maxSplits: 1)
                    entry.extraFields.append((String(parts[0]).trimmingSpaces(),
                                              parts.count > 1 ? String(parts[1]).trimmingSpaces() : ""))
                }
            case .extra(let name):
                var value = batch.text(field)
                // KeePassXC writes every group's path from the database's root group, whose name
                // varies ("Root" from the application, "Passwords" from keepassxc-cli db-create).
                if layout.format == .keepassxcCSV, name == "group" {
                    value = value.split(separator: "/", maxSplits: 1).dropFirst().first.map(String.init) ?? ""
                }
                if !value.isEmpty { entry.extraFields.append((name, value)) }
            case .ignored: break
            }
        }
        // LastPass writes secure notes as rows with the URL http://sn.
        if layout.format == .lastPassCSV, entry.locations == ["http://sn"] { entry.kind = .other("secure note") }
        return entry
    }
}
