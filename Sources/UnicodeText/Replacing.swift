extension StringProtocol {
    /// Every occurrence of `target` replaced by `replacement`, compared scalar by scalar as
    /// Foundation's `replacingOccurrences` did. Not `String.replacing`, which compares whole
    /// characters: a quote followed by a combining mark is one character, and an escape that
    /// missed it would let the quote through (a shell word, a settings value).
    public func replacingEvery(_ target: String, with replacement: String) -> String {
        String(
            String.UnicodeScalarView(unicodeScalars).replacing(target.unicodeScalars, with: replacement.unicodeScalars))
    }
}
