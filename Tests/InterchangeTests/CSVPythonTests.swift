import Foundation
import Testing
@testable import Interchange
import PwtuiTestSupport
import VaultModel

/// The reader against the most common writer of CSV there is: records generated here (seeded, so
/// a failure replays) are written by Python's `csv` module, as many exporters write them, and
/// must come back field for field. Python quotes only where it has to (commas, quotes, line
/// breaks, and a lone empty field), so this checks the reader on unquoted fields next to quoted
/// ones, CRLF line ends, and doubled quotes in the places a real writer puts them.
@Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"), "needs python3"))
struct CSVPythonTests {
    @Test func recordsWrittenByPythonReadBack() throws {
        var random = SeededGenerator(seed: 15)
        let alphabet: [String] = ["a", "Z", "7", " ", ",", "\"", "\n", "\r\n", "\r", "é", "🔑", "\t", "'", ";", "\\"]
        var cases: [[[String]]] = []
        for _ in 0 ..< 50 {
            var records: [[String]] = []
            for _ in 0 ..< Int.random(in: 1 ... 20, using: &random) {
                let count = Int.random(in: 1 ... 6, using: &random)
                var record: [String] = []
                for _ in 0 ..< count {
                    var field = ""
                    for _ in 0 ..< Int.random(in: 0 ... 6, using: &random) {
                        field += alphabet[Int.random(in: 0 ..< alphabet.count, using: &random)]
                    }
                    record.append(field)
                }
                // A record of one field of spaces and tabs is a blank line to this reader (by
                // design: see CSVReader), which Python writes unquoted: leave those out.
                if count == 1, !record[0].isEmpty, record[0].allSatisfy({ $0 == " " || $0 == "\t" }) {
                    record[0] += "x"
                }
                records.append(record)
            }
            cases.append(records)
        }

        // Each case as a Python literal of hexadecimal UTF-8, written with csv.writer, printed in hex.
        let literal = cases.map { records in
            "["
                + records.map { record in
                    "["
                        + record.map { "'" + Array($0.utf8).map { String(format: "%02x", $0) }.joined() + "'" }.joined(
                            separator: ",") + "]"
                }.joined(separator: ",") + "]"
        }.joined(separator: ",\n")
        let script = """
            import csv, io
            cases = [\(literal)]
            for records in cases:
                out = io.StringIO(newline='')
                writer = csv.writer(out)
                for record in records:
                    writer.writerow([bytes.fromhex(f).decode('utf-8') for f in record])
                print(out.getvalue().encode('utf-8').hex())
            """
        let python = try ProgramOutput("/usr/bin/python3", ["-c", script])
        let printed = python.text
        #expect(python.ending.succeeded)
        let files = printed.split(separator: "\n").map { line -> [UInt8] in
            let digits = Array(line.utf8)
            return stride(from: 0, to: digits.count - 1, by: 2).compactMap {
                UInt8(String(decoding: digits[$0 ..< $0 + 2], as: UTF8.self), radix: 16)
            }
        }
        try #require(files.count == cases.count)
        for (index, file) in files.enumerated() {
            let (records, arena) = try read(file, with: CSVReader.records)
            #expect(records.map { $0.fields.map(arena.text) } == cases[index], "case \(index)")
        }
    }
}
