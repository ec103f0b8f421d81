import VaultCrypto
import VaultModel

/// One record of a CSV file: where it starts, and its fields, each in the arena.
public struct CSVRecord: Sendable {
    /// The line the record starts on (a quoted field may carry it over several lines).
    public let line: Int
    public var fields: [SecretReference]
}

/// Reads CSV into protected memory, field by field.
///
/// The grammar is RFC 4180 widened to what password managers actually export: an optional UTF-8
/// BOM, CRLF or LF line endings (mixed too; a lone CR also ends a line, as Python's `csv` reads
/// it), fields in double quotes holding commas, line breaks and doubled quotes, empty fields, a
/// last line without a line break. Lines that are blank (nothing, or only spaces and tabs) are
/// skipped, wherever they are: exporters end files with one, users leave them when editing, and
/// a record of one empty field is never what a password export means. A quote inside an unquoted
/// field is taken literally, as Python and spreadsheets take it.
///
/// Why a hand-written scanner: every field may be a password, so no field may pass through a
/// `String` or an array on its way to the arena. A field without doubled quotes is stored from
/// the input directly; one with doubled quotes is built in a single scratch `SecureBytes`
/// (protected, zeroed when done) and stored from there. The scan is one pass, each byte looked at
/// once, so 10,000 records of 6 fields are read in a few milliseconds.
///
/// What is refused, with the line and column of the culprit: bytes that are not UTF-8 (the whole
/// input is checked before any field is read), a NUL byte, a quote that is never closed (reported
/// where it opens, since its end is the end of file), and anything but a comma or a line end right
/// after a closing quote (`"a"b`), which is always a broken quoting and never a value. Whether
/// every record has the right number of fields is the format mapper's business, not this one's.
public enum CSVReader {
    public static func records(_ bytes: UnsafeRawBufferPointer, into arena: SecretArena) throws(ImportFailure)
        -> [CSVRecord]
    {
        var input = try InputText(validating: bytes)
        var scratch: SecureBytes
        scratch = try ImportFailure.inProtectedMemory { () throws(VaultCryptoError) in try SecureBytes(capacity: 256) }
        var records: [CSVRecord] = []
        let end = input.count
        var index = input.start

        while index < end {
            // A blank line (only spaces and tabs before its end) is no record.
            var probe = index
            while probe < end, input[probe] == space || input[probe] == tab { probe += 1 }
            if probe == end { break }
            if input[probe] == lf || input[probe] == cr {
                index = afterLineEnd(input, probe)
                continue
            }

            let line = input.line(at: index)
            var fields: [SecretReference] = []
            fields.reserveCapacity(records.last?.fields.count ?? 8)
            var recordDone = false
            while !recordDone {
                if index < end, input[index] == quote {
                    // A quoted field: runs of bytes between doubled quotes.
                    let opening = index
                    index += 1
                    var runStart = index
                    var unescaped = false
                    scratch.removeAll()
                    while true {
                        guard index < end else {
                            throw input.failure(at: opening, "a quote that is never closed")
                        }
                        let byte = input[index]
                        if byte == quote {
                            if index + 1 < end, input[index + 1] == quote {
                                // Keep the first of the two quotes, skip the second.
                                try append(input.slice(runStart ..< index + 1), to: &scratch)
                                unescaped = true
                                index += 2
                                runStart = index
                                continue
                            }
                            break
                        }
                        if byte == 0 { throw input.failure(at: index, "a NUL byte") }
                        index += 1
                    }
                    if unescaped {
                        try append(input.slice(runStart ..< index), to: &scratch)
                        fields.append(try store(scratch, in: arena))
                        scratch.removeAll()
                    } else {
                        fields.append(try store(input.slice(runStart ..< index), in: arena))
                    }
                    index += 1  // the closing quote
                    if index < end, input[index] != comma, input[index] != lf, input[index] != cr {
                        throw input.failure(
                            at: index, "a character after a closing quote (expected a comma or the end of the line)")
                    }
                } else {
                    let fieldStart = index
                    while index < end {
                        let byte = input[index]
                        if byte == comma || byte == lf || byte == cr { break }
                        if byte == 0 { throw input.failure(at: index, "a NUL byte") }
                        index += 1
                    }
                    fields.append(try store(input.slice(fieldStart ..< index), in: arena))
                }
                // Here index is at a comma, a line end or the end of the input.
                if index < end, input[index] == comma {
                    index += 1
                } else {
                    if index < end { index = afterLineEnd(input, index) }
                    recordDone = true
                }
            }
            records.append(CSVRecord(line: line, fields: fields))
        }
        if records.isEmpty { throw ImportFailure("the file is empty") }
        return records
    }

    /// The offset after the line end (LF, CR LF or a lone CR) at `index`.
    private static func afterLineEnd(_ input: InputText, _ index: Int) -> Int {
        if input[index] == cr, index + 1 < input.count, input[index + 1] == lf { return index + 2 }
        return index + 1
    }

    private static func append(_ bytes: UnsafeRawBufferPointer, to scratch: inout SecureBytes) throws(ImportFailure) {
        try ImportFailure.inProtectedMemory { () throws(VaultCryptoError) in try scratch.append(contentsOf: bytes) }
    }

    private static func store(_ bytes: UnsafeRawBufferPointer, in arena: SecretArena) throws(ImportFailure)
        -> SecretReference
    {
        do {
            return try arena.store(bytes)
        } catch {
            throw ImportFailure("cannot store a field in protected memory: \(error)")
        }
    }

    private static func store(_ bytes: borrowing SecureBytes, in arena: SecretArena) throws(ImportFailure)
        -> SecretReference
    {
        do {
            return try arena.store(bytes)
        } catch {
            throw ImportFailure("cannot store a field in protected memory: \(error)")
        }
    }
}

private let quote = UInt8(ascii: "\"")
private let comma = UInt8(ascii: ",")
private let lf = UInt8(ascii: "\n")
private let cr = UInt8(ascii: "\r")
private let space = UInt8(ascii: " ")
private let tab = UInt8(ascii: "\t")
