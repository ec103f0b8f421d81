// What Foundation's `trimmingCharacters(in: .whitespaces)` and `(in: .whitespacesAndNewlines)` did,
// without linking all of Foundation for it (docs/speed.md: the full Foundation, with ICU's data,
// was most of the binary and of a fresh process's memory). The sets are Foundation's: Unicode's
// space separators, tab and ZERO WIDTH SPACE; and those with the line ends too. TrimmingTests
// holds them to Foundation's own answers.

extension Unicode.Scalar {
    /// A space separator (U+0020, U+00A0, U+2000…U+200A, U+3000 and the like), a tab, or
    /// ZERO WIDTH SPACE (U+200B), which Foundation counts too: one pasted after a URL is trimmed.
    public var isHorizontalSpace: Bool {
        value == 0x09 || value == 0x200B || properties.generalCategory == .spaceSeparator
    }

    /// LF, VT, FF, CR, NEL, LINE SEPARATOR or PARAGRAPH SEPARATOR.
    public var isLineEnd: Bool {
        (0x0A ... 0x0D).contains(value) || value == 0x85 || value == 0x2028 || value == 0x2029
    }
}

extension StringProtocol {
    /// Without the spaces and tabs at either end.
    public func trimmingSpaces() -> String {
        trimming { $0.isHorizontalSpace }
    }

    /// Without the spaces, tabs and line ends at either end.
    public func trimmingSpacesAndNewlines() -> String {
        trimming { $0.isHorizontalSpace || $0.isLineEnd }
    }

    /// Without the scalars at either end for which `isTrimmed` holds. By scalar, not by
    /// `Character`: a combining mark after a space keeps the space, as Foundation did.
    public func trimming(where isTrimmed: (Unicode.Scalar) -> Bool) -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !isTrimmed($0) }),
            let last = scalars.lastIndex(where: { !isTrimmed($0) })
        else { return "" }
        return String(String.UnicodeScalarView(scalars[first ... last]))
    }
}
