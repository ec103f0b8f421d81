import Testing
@testable import Interchange
import PwtuiTestSupport
import VaultModel

struct CSVReaderTests {
    let reader: Reader<[CSVRecord]> = CSVReader.records

    /// The fields of each record as text, and the line each starts on.
    func parse(_ bytes: [UInt8]) throws -> (fields: [[String]], lines: [Int]) {
        let (records, arena) = try read(bytes, with: reader)
        return (records.map { $0.fields.map(arena.text) }, records.map(\.line))
    }

    func parse(_ text: String) throws -> (fields: [[String]], lines: [Int]) {
        try parse(Array(text.utf8))
    }

    // MARK: What real exports contain

    @Test func plainRecords() throws {
        let result = try parse("name,url,username,password\nmail,https://mail.example,ann,hunter2\n")
        #expect(
            result.fields == [
                ["name", "url", "username", "password"], ["mail", "https://mail.example", "ann", "hunter2"],
            ])
        #expect(result.lines == [1, 2])
    }

    @Test func byteOrderMarkCRLFAndNoFinalLineBreak() throws {
        let result = try parse(bom + Array("a,b\r\nc,d".utf8))
        #expect(result.fields == [["a", "b"], ["c", "d"]])
        #expect(result.lines == [1, 2])
    }

    @Test func mixedLineEndings() throws {
        let result = try parse("a\nb\r\nc\rd\n")
        #expect(result.fields == [["a"], ["b"], ["c"], ["d"]])
        #expect(result.lines == [1, 2, 3, 4])
    }

    @Test func quotedFieldsWithCommasQuotesAndLineBreaks() throws {
        let input = "title,notes\n\"Bank, main\",\"say \"\"hi\"\"\nsecond line\r\nthird\"\nlast,\"\"\"\"\n"
        let result = try parse(input)
        #expect(
            result.fields == [
                ["title", "notes"], ["Bank, main", "say \"hi\"\nsecond line\r\nthird"], ["last", "\""],
            ])
        // The third record starts after the two line breaks inside the quoted field.
        #expect(result.lines == [1, 2, 5])
    }

    @Test func emptyFields() throws {
        let result = try parse(",a,,\n\"\",\"\"\n,\n")
        #expect(result.fields == [["", "a", "", ""], ["", ""], ["", ""]])
    }

    @Test func blankLinesAreSkippedAndNumbered() throws {
        let result = try parse("\n\na,b\n\n  \t\r\nc,d\n\n\n")
        #expect(result.fields == [["a", "b"], ["c", "d"]])
        #expect(result.lines == [3, 6])
    }

    @Test func aQuotedEmptyFieldAloneIsARecord() throws {
        let result = try parse("a\n\"\"\n")
        #expect(result.fields == [["a"], [""]])
    }

    @Test func quotesInsideAnUnquotedFieldAreLiteral() throws {
        let result = try parse("5\" floppy,x\"y\n")
        #expect(result.fields == [["5\" floppy", "x\"y"]])
    }

    @Test func unicodeIsKeptByteForByte() throws {
        let result = try parse("日本語,\"pässwörd 🔑\",ÿ\n")
        #expect(result.fields == [["日本語", "pässwörd 🔑", "ÿ"]])
    }

    @Test func spacesAroundFieldsAreKept() throws {
        let result = try parse(" a , b \n")
        #expect(result.fields == [[" a ", " b "]])
    }

    // MARK: What is refused, and where

    @Test func invalidUTF8() throws {
        try expectFailure(
            Array("a,b\nc,".utf8) + [0xE9] + Array("t\u{E9}\n".utf8), with: reader,
            line: 2, column: 3, "invalid UTF-8 (byte 0xE9)")
        // After a BOM, columns count from the first visible byte.
        try expectFailure(bom + [0x61, 0xFF], with: reader, line: 1, column: 2, "invalid UTF-8 (byte 0xFF)")
        // A sequence cut short at the end of the file, an overlong form, an encoded surrogate.
        try expectFailure([0x61, 0x0A, 0xE2, 0x82], with: reader, line: 2, column: 1, "invalid UTF-8 (byte 0xE2)")
        try expectFailure([0xC0, 0xAF], with: reader, line: 1, column: 1, "invalid UTF-8 (byte 0xC0)")
        try expectFailure(
            [0x0A, 0x0A, 0x61, 0xED, 0xA0, 0x80], with: reader, line: 3, column: 2, "invalid UTF-8 (byte 0xED)")
    }

    @Test func unbalancedQuoteIsReportedWhereItOpens() throws {
        try expectFailure(
            "name,password\nmail,\"hunter2\nmore,lines\n", with: reader,
            line: 2, column: 6, "a quote that is never closed", notQuoting: "hunter2")
        try expectFailure("a\r\n\r\n x,\"", with: reader, line: 3, column: 4, "a quote that is never closed")
    }

    @Test func characterAfterAClosingQuote() throws {
        try expectFailure(
            "a,b\n\"hunter\"2,c\n", with: reader, line: 2, column: 9,
            "a character after a closing quote", notQuoting: "hunter")
        try expectFailure("\"a\" ,b", with: reader, line: 1, column: 4, "a character after a closing quote")
    }

    @Test func nulByte() throws {
        try expectFailure([0x61, 0x2C, 0x62, 0x00, 0x0A], with: reader, line: 1, column: 4, "a NUL byte")
        try expectFailure(Array("x\n\"a\nb".utf8) + [0x00, 0x22], with: reader, line: 3, column: 2, "a NUL byte")
    }

    @Test func emptyFile() throws {
        try expectFailure("", with: reader, line: nil, column: nil, "the file is empty")
        try expectFailure(bom, with: reader, line: nil, column: nil, "the file is empty")
        try expectFailure("\n\r\n  \n\t\n", with: reader, line: nil, column: nil, "the file is empty")
    }

    // MARK: Round trips and speed

    /// Random records written with quoting (as a writer would) come back field for field, with
    /// the lines they start on.
    @Test(arguments: [UInt64(1), 2, 3, 4, 5, 6, 7, 8])
    func roundTrip(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let alphabet: [String] = ["a", "b", "Z", "0", " ", ",", "\"", "\n", "\r\n", "\r", "é", "🔑", "\t", "'", ";"]
        var expected: [[String]] = []
        var expectedLines: [Int] = []
        var output = ""
        var line = 1
        for _ in 0 ..< Int.random(in: 1 ... 40, using: &random) {
            var record: [String] = []
            for _ in 0 ..< Int.random(in: 1 ... 6, using: &random) {
                var field = ""
                for _ in 0 ..< Int.random(in: 0 ... 8, using: &random) {
                    field += alphabet[Int.random(in: 0 ..< alphabet.count, using: &random)]
                }
                record.append(field)
            }
            expected.append(record)
            expectedLines.append(line)
            let written = record.map { field -> String in
                let special = field.utf8.contains { [0x2C, 0x22, 0x0D, 0x0A].contains($0) }
                // A lone field that is blank must be quoted, or it would be a blank line.
                let blank = record.count == 1 && field.allSatisfy { $0 == " " || $0 == "\t" }
                guard special || blank || Bool.random(using: &random) else { return field }
                return "\"" + field.map { $0 == "\"" ? "\"\"" : String($0) }.joined() + "\""
            }.joined(separator: ",")
            let ending = Bool.random(using: &random) ? "\n" : "\r\n"
            output += written + ending
            line +=
                1
                + written.utf8.indices.filter { index in
                    let byte = written.utf8[index]
                    let next = written.utf8.index(after: index)
                    return byte == 0x0A
                        || (byte == 0x0D && (next == written.utf8.endIndex || written.utf8[next] != 0x0A))
                }.count
        }
        let result = try parse(output)
        #expect(result.fields == expected, "seed \(seed)")
        #expect(result.lines == expectedLines, "seed \(seed)")
    }

    /// 10,000 records of 6 fields: linear, and quick even in a debug build (the release figure is
    /// in the report of issue 15).
    @Test func tenThousandRecords() throws {
        var input: [UInt8] = []
        input.reserveCapacity(800_000)
        for index in 0 ..< 10_000 {
            input += Array(
                "entry \(index),https://site\(index).example/login,user\(index)@example.com,\"p,w\"\"\(index)\",notes,\(index)\n"
                    .utf8)
        }
        let clock = ContinuousClock()
        let start = clock.now
        let (records, arena) = try read(input, with: reader)
        let elapsed = clock.now - start
        #expect(records.count == 10_000)
        #expect(records.allSatisfy { $0.fields.count == 6 })
        #expect(arena.text(records[9_999].fields[3]) == "p,w\"9999")
        #expect(elapsed < .seconds(2), "took \(elapsed)")
    }
}
