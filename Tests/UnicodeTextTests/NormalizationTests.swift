import Foundation
import PwtuiTestSupport
import Testing
import UnicodeText

/// Unicode's own conformance data for normalization, as Debian's unicode-data installs it: every
/// line gives a source and its NFC, and `canonicallyComposed` must agree with all of them. Swift's
/// `==` on strings is canonical equivalence, so scalars are compared, never strings.
@Suite struct NormalizationTests {
    static let file = "/usr/share/unicode/NormalizationTest.txt.bz2"

    /// The five columns (source, NFC, NFD, NFKC, NFKD) of each test line.
    static func lines() throws -> [[String]] {
        guard FileManager.default.fileExists(atPath: file) else {
            Issue.record("\(file) is missing: apt install unicode-data (make deps does)")
            return []
        }
        let bzcat = try ProgramOutput("/bin/bzcat", [file])
        #expect(bzcat.ending.succeeded)
        return bzcat.text.split(separator: "\n").compactMap { line in
            guard let first = line.first, first != "#", first != "@" else { return nil }
            let columns = line.split(separator: ";").prefix(5).map { column in
                String(
                    String.UnicodeScalarView(
                        column.split(separator: " ").compactMap { UInt32($0, radix: 16).flatMap(Unicode.Scalar.init) }))
            }
            return columns.count == 5 ? columns : nil
        }
    }

    @Test func composesAsUnicodesConformanceDataSays() throws {
        let lines = try Self.lines()
        #expect(lines.count > 18_000)
        var failures = 0
        for columns in lines {
            // NFC(c1) = NFC(c2) = NFC(c3) = c2, and NFC(c4) = NFC(c5) = c4.
            let expectations = [
                (columns[0], columns[1]), (columns[1], columns[1]), (columns[2], columns[1]),
                (columns[3], columns[3]), (columns[4], columns[3]),
            ]
            for (source, composed) in expectations
            where Array(source.canonicallyComposed.unicodeScalars) != Array(composed.unicodeScalars) {
                failures += 1
                if failures <= 10 {
                    Issue.record("NFC of \(source.unicodeScalars.map { String($0.value, radix: 16) })")
                }
            }
        }
        #expect(failures == 0)
    }

    @Test func foldsTitlesAsAReaderComparesThem() {
        #expect("Émile".foldedForComparison == "emile")
        #expect("E\u{301}MILE".foldedForComparison == "emile")
        #expect("Ｇｉｔ　Ｈｕｂ".foldedForComparison == "git hub")
        #expect("Ångström".foldedForComparison == "angstrom")
        #expect("Ελληνικά".foldedForComparison == "ελληνικα")
        #expect("日本語".foldedForComparison == "日本語")
    }

    /// Foundation's folding (case, diacritics, width) on every letter of Latin-1 and Latin
    /// Extended-A that decomposes: the same answer, letter by letter.
    @Test func foldsLatinLettersAsFoundationDid() {
        for value in 0xC0 ... 0x17F {
            guard let scalar = Unicode.Scalar(value), scalar.properties.isAlphabetic else { continue }
            let letter = String(scalar)
            let foundation = letter.folding(
                options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
            guard letter.decomposedStringWithCanonicalMapping.unicodeScalars.count > 1 else { continue }
            #expect(letter.foldedForComparison == foundation, "U+\(String(value, radix: 16))")
        }
    }
}
