// Unicode normalization from the standard library's own tables (the ones it compares strings
// with), where Foundation's `precomposedStringWithCanonicalMapping` and `folding(options:)` went
// through ICU, which a Foundation-free build does not link.
@_spi(_Unicode) import Swift

extension StringProtocol {
    /// Normalization Form C: "e" + U+0301 becomes "é". What IDNA and host comparison expect.
    public var canonicallyComposed: String {
        String(String.UnicodeScalarView(String(self)._nfc))
    }

    /// For comparing titles as a reader would: letters lowercased, accents dropped (canonical
    /// decomposition, then no nonspacing marks), and the full-width ASCII forms of CJK text
    /// (U+FF01…U+FF5E, U+3000) read as ASCII. Locale-independent, like the sort it feeds.
    public var foldedForComparison: String {
        var folded = String.UnicodeScalarView()
        for scalar in String(self)._nfd where scalar.properties.generalCategory != .nonspacingMark {
            switch scalar.value {
            case 0xFF01 ... 0xFF5E: folded.append(Unicode.Scalar(scalar.value - 0xFEE0) ?? scalar)
            case 0x3000: folded.append(" ")
            default: folded.append(scalar)
            }
        }
        return String(folded).lowercased()
    }
}
