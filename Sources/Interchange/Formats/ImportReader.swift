import Platform
import VaultModel

/// Reads an export, whatever its format: a directory is a pass store; a file is told apart by
/// its first character (`{` JSON, `<` XML, anything else CSV) and then by its header or
/// structure, unless `--format` says.
public enum ImportReader {
    public static func read(
        _ path: String, format: ImportFormat? = nil, decrypter: PassStore.Decrypter? = nil,
        progress: ((Int, Int) -> Void)? = nil
    ) throws -> ImportBatch {
        let status: FileStatus
        do {
            status = try FileSystem.status(path)
        } catch {
            throw ImportFailure(file: path, error.code == 2 ? "no such file or directory" : "cannot be read (\(error))")
        }
        if status.kind == .directory {
            guard format == nil || format == .pass else {
                throw ImportFailure(
                    file: path,
                    "is a directory; only a pass / gopass store is imported from a directory (--format pass)")
            }
            return try PassStore.read(path, decrypter: decrypter ?? GnuPG.decrypt, progress: progress)
        }
        if format == .pass { throw ImportFailure(file: path, "is a file; --format pass takes the store's directory") }
        let bytes = try ProtectedFile.read(path)
        do {
            // A CSV's fields are copied into the arena, and the file let go before they become
            // entries: the file, the fields and the entries' text are never all held at once.
            var csv: (records: [CSVRecord], arena: SecretArena)? = try bytes.withUnsafeBytes { all in
                guard let arena = try csvArena(all, format: format) else { return nil }
                return (try CSVReader.records(all, into: arena), arena)
            }
            guard csv != nil else {
                let batch = try bytes.withUnsafeBytes { try read(bytes: $0, format: format) }
                _ = consume bytes
                // As for a CSV: the reader's arena holds every field it read, the secrets keep
                // one of their own (issue 23).
                try batch.keepOnlySecrets()
                return batch
            }
            _ = consume bytes
            return try csvBatch(from: &csv, format: format)
        } catch let failure as ImportFailure {
            throw failure.inFile(path)
        }
    }

    /// The entries of the CSV records in `csv`, which is left nil: the records and the fields'
    /// arena are then held by nothing, and the arena is let go for one of the secrets alone
    /// (`keepOnlySecrets`): the entries hold the text they need as strings (issue 23: 100 MB of
    /// a 100 MB CSV, held through the whole plan).
    private static func csvBatch(
        from csv: inout (records: [CSVRecord], arena: SecretArena)?,
        format: ImportFormat?
    ) throws -> ImportBatch {
        let batch: ImportBatch
        do {
            guard let fields = csv else { throw ImportFailure("the file is empty") }
            batch = try CSVImport.entries(fields.records, format: format, arena: fields.arena)
        }
        csv = nil
        try batch.keepOnlySecrets()
        return batch
    }

    /// An arena for the fields of `bytes` when they are read as CSV; nil for any other format.
    private static func csvArena(_ bytes: UnsafeRawBufferPointer, format: ImportFormat?) throws -> SecretArena? {
        guard !ZipArchive.isZip(bytes), UnsupportedExport.binary(bytes) == nil else { return nil }
        switch format ?? sniff(bytes) {
        case .bitwardenJSON, .keepassXML, .pass, .onePasswordPux: return nil
        default: return try SecretArena(capacity: bytes.count)
        }
    }

    /// An export file's bytes (not a store directory); what the fuzzer feeds.
    public static func read(bytes: UnsafeRawBufferPointer, format: ImportFormat? = nil) throws -> ImportBatch {
        // A zip archive is read as 1Password's .1pux (the only one pwtui reads), whose export.data it must hold.
        if ZipArchive.isZip(bytes), format == nil || format == .onePasswordPux { return try OnePasswordPux.read(bytes) }
        if format == .onePasswordPux {
            throw ImportFailure("--format 1password-1pux reads a .1pux (zip) archive; this file is not one")
        }
        // Before any format, --format's included: a binary file is no format's.
        if let what = UnsupportedExport.binary(bytes) { throw ImportFailure(what) }
        // Every field is at most what the file holds: one allocation, never a doubling.
        let arena = try SecretArena(capacity: bytes.count)
        switch format ?? sniff(bytes) {
        case .bitwardenJSON: return try BitwardenJSON.read(bytes, arena: arena)
        case .keepassXML: return try KeePassXML.read(bytes, arena: arena)
        case .pass: throw ImportFailure("--format pass takes the store's directory")
        // `.csv` from sniffing means "some CSV": its header tells which, unless --format did.
        default: return try CSVImport.read(bytes, format: format, arena: arena)
        }
    }

    /// The format the first character suggests; `.csv` stands for "some CSV, see its header".
    private static func sniff(_ bytes: UnsafeRawBufferPointer) -> ImportFormat {
        var index = 0
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        guard index < bytes.count else { return .csv }
        switch bytes[index] {
        case UInt8(ascii: "{"), UInt8(ascii: "["): return .bitwardenJSON
        case UInt8(ascii: "<"): return .keepassXML
        default: return .csv
        }
    }
}
