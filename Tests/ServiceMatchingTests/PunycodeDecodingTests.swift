import Testing
import PwtuiTestSupport
@testable import ServiceMatching

/// Punycode decoding, for the typed filter's Unicode form of IDN hosts: against RFC 3492's own
/// sample strings (section 7.1), against the encoder on generated labels, and on bad input.
@Suite struct PunycodeDecodingTests {
    static func text(_ scalars: [UInt32]) -> String {
        String(String.UnicodeScalarView(scalars.compactMap(Unicode.Scalar.init)))
    }

    /// RFC 3492, 7.1: (A) Arabic, (B) simplified Chinese, (L) 3年B組金八先生, (P) MajiでKoiする5秒前.
    static let samples: [(encoded: String, scalars: [UInt32])] = [
        (
            "egbpdaj6bu4bxfgehfvwxn",
            [
                0x0644, 0x064A, 0x0647, 0x0645, 0x0627, 0x0628, 0x062A, 0x0643, 0x0644, 0x0645, 0x0648,
                0x0634, 0x0639, 0x0631, 0x0628, 0x064A, 0x061F,
            ]
        ),
        ("ihqwcrb4cv8a8dqg056pqjye", [0x4ED6, 0x4EEC, 0x4E3A, 0x4EC0, 0x4E48, 0x4E0D, 0x8BF4, 0x4E2D, 0x6587]),
        ("3B-ww4c5e180e575a65lsy2b", [0x33, 0x5E74, 0x42, 0x7D44, 0x91D1, 0x516B, 0x5148, 0x751F]),
        (
            "MajiKoi5-783gue6qz075azm5e",
            [0x4D, 0x61, 0x6A, 0x69, 0x3067, 0x4B, 0x6F, 0x69, 0x3059, 0x308B, 0x35, 0x79D2, 0x524D]
        ),
        ("bcher-kva", [0x62, 0xFC, 0x63, 0x68, 0x65, 0x72]),
    ]

    @Test func rfcSamplesDecode() {
        for sample in Self.samples {
            #expect(Punycode.decode(sample.encoded) == Self.text(sample.scalars), "\(sample.encoded)")
            #expect(
                Punycode.encode(Self.text(sample.scalars)) == sample.encoded, "the encoder agrees: \(sample.encoded)")
        }
    }

    @Test func decodingUndoesEncodingOnGeneratedLabels() {
        var random = SeededGenerator(seed: 3492)
        let ranges: [ClosedRange<UInt32>] = [
            0x61 ... 0x7A, 0x30 ... 0x39, 0xE0 ... 0xFF, 0x3B1 ... 0x3C9, 0x4E00 ... 0x4E80, 0x1F600 ... 0x1F640,
        ]
        for _ in 0 ..< 2_000 {
            let count = Int.random(in: 1 ... 20, using: &random)
            let scalars = (0 ..< count).map { _ in
                UInt32.random(in: ranges.randomElement(using: &random) ?? 0x61 ... 0x7A, using: &random)
            }
            let label = Self.text(scalars)
            guard let encoded = Punycode.encode(label) else { Issue.record("not encoded: \(scalars)"); continue }
            #expect(Punycode.decode(encoded) == label, "\(scalars) → \(encoded)")
        }
    }

    @Test func notPunycodeIsNil() {
        for bad in ["ü-abc", "abc-!!", "99999999999999", String(repeating: "z", count: 64)] {
            #expect(Punycode.decode(bad) == nil, "\(bad)")
        }
        #expect(Punycode.toUnicode("xn--mnchen-3ya.de") == "münchen.de")
        #expect(Punycode.toUnicode("xn--!!.example") == "xn--!!.example", "a label that does not decode is kept")
    }

    @Test("the typed filter finds IDN hosts by their Unicode form, and folds accents both ways (issue 26, 11)")
    func filterFindsUnicodeForms() throws {
        let munich = FuzzyMatch.searchBytes(
            title: "", username: "", services: [try ServiceIdentifier("https://xn--mnchen-3ya.de")])
        let books = FuzzyMatch.searchBytes(title: "", username: "", services: [try ServiceIdentifier("bücher.de")])
        #expect(FuzzyMatch.score(query: FuzzyMatch.terms("mün"), candidate: munich) != nil)
        #expect(FuzzyMatch.score(query: FuzzyMatch.terms("MUN"), candidate: munich) != nil)
        #expect(FuzzyMatch.score(query: FuzzyMatch.terms("bucher"), candidate: books) != nil)
        #expect(FuzzyMatch.score(query: FuzzyMatch.terms("bücher"), candidate: books) != nil)
        #expect(FuzzyMatch.score(query: FuzzyMatch.terms("zzz"), candidate: books) == nil)
    }
}
