import Testing
@testable import Interchange
import PwtuiTestSupport
import VaultModel

/// Random inputs built from each format's own punctuation (seeded, so a failure replays): a reader
/// either reads them or throws an `ImportFailure` placed inside the input; it never traps on an
/// index, never loops, never places an error beyond the end. The fuzzers go further; this runs
/// with every test run.
struct ReaderRobustnessTests {
    static func inputs(_ alphabet: [String], seed: UInt64, count: Int = 400) -> [[UInt8]] {
        var random = SeededGenerator(seed: seed)
        return (0 ..< count).map { _ in
            var bytes: [UInt8] = []
            for _ in 0 ..< Int.random(in: 0 ... 40, using: &random) {
                bytes += Array(alphabet[Int.random(in: 0 ..< alphabet.count, using: &random)].utf8)
            }
            if Int.random(in: 0 ..< 10, using: &random) == 0, !bytes.isEmpty {
                // Now and then a byte that is not UTF-8, or a NUL, somewhere.
                bytes[Int.random(in: 0 ..< bytes.count, using: &random)] =
                    [0xFF, 0x00, 0xC3, 0xED][Int.random(in: 0 ..< 4, using: &random)]
            }
            return bytes
        }
    }

    func check<Output>(
        _ inputs: [[UInt8]], with reader: Reader<Output>, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        for input in inputs {
            guard let failure = try failure(input, with: reader) else { continue }
            let lines =
                1
                + input.indices.filter {
                    input[$0] == 0x0A || (input[$0] == 0x0D && ($0 + 1 == input.count || input[$0 + 1] != 0x0A))
                }.count
            if let line = failure.line {
                #expect(line >= 1 && line <= lines, "\(failure) for \(input)", sourceLocation: sourceLocation)
                #expect(
                    (failure.column ?? 0) >= 1 && (failure.column ?? 0) <= input.count + 1, "\(failure) for \(input)",
                    sourceLocation: sourceLocation)
            } else {
                #expect(
                    failure.reason == "the file is empty", "\(failure) for \(input)", sourceLocation: sourceLocation)
            }
        }
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func csv(seed: UInt64) throws {
        try check(
            Self.inputs(["a", ",", "\"", "\"\"", "\n", "\r", "\r\n", " ", "é"], seed: seed), with: CSVReader.records)
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func json(seed: UInt64) throws {
        let alphabet = [
            "{", "}", "[", "]", ",", ":", "\"", "\"a\"", "\\", "\\u", "d83d", "\\ude00", "1", "-", ".", "e",
            "true", "null", " ", "\n", "é",
        ]
        try check(Self.inputs(alphabet, seed: seed), with: JSONReader.value)
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func xml(seed: UInt64) throws {
        let alphabet = [
            "<", ">", "/", "a", "<a>", "</a>", "<b/>", "=", "\"", "'", " ", "\n", "&", "&amp;", "&#", "x41", ";",
            "<!--", "-->", "<![CDATA[", "]]>", "<?", "?>", "<!DOCTYPE", "[", "é",
        ]
        try check(Self.inputs(alphabet, seed: seed), with: XMLReader.document)
    }
}
