// `passwordrules`: what a site says its passwords must look like (the WHATWG proposal that Safari
// implements, and the language of Apple's per-site quirks), e.g.
//
//     minlength: 8; maxlength: 16; required: lower, upper; required: digit; allowed: [-_.];
//
// A property is `name: value` and ends at `;` (the last one may omit it). Names are case-insensitive.
// `required` lists character classes of which the password must hold at least one character (each
// `required` property is one such condition); `allowed` widens what may appear; `minlength`,
// `maxlength` and `max-consecutive` (the longest run of one repeated character) take integers and,
// given twice, the strictest wins. A class is `upper`, `lower`, `digit`, `special` (ASCII
// punctuation and space), `ascii-printable`, `unicode`, or a custom set in brackets: `[-_.]`,
// where a `-` may only come first and a `]` only last (`[-]]` holds both). A property of another
// name is ignored, as the proposal says, so that newer rules still work in older readers.
//
// Sites write these by hand, so the parser is strict where a mistake changes the meaning (an
// unknown class, a number that is not one, an unterminated set) and says where: every error has
// the 1-based column of the character it stopped at. When nothing is required or allowed, every
// printable ASCII character is.

/// Parsed `passwordrules`: the conditions a password must meet.
public struct PasswordRules: Equatable, Sendable {
    /// Each element: a set of which at least one character must appear.
    public var required: [Set<UInt8>] = []
    /// What may appear besides what `required` names (nil: nothing was said).
    public var allowed: Set<UInt8>?
    public var minimumLength: Int?
    public var maximumLength: Int?
    public var maximumConsecutive: Int?
    /// Whether `unicode` was named: any character at all may appear.
    public var allowsUnicode = false

    public init() {}

    public struct ParseError: Error, Equatable, CustomStringConvertible {
        /// 1-based column of the character the parser stopped at.
        public let column: Int
        public let problem: String
        public var description: String { "column \(column): \(problem)" }
    }

    public static let upper = Set(UInt8(ascii: "A") ... UInt8(ascii: "Z"))
    public static let lower = Set(UInt8(ascii: "a") ... UInt8(ascii: "z"))
    public static let digit = Set(UInt8(ascii: "0") ... UInt8(ascii: "9"))
    public static let special = Set((0x20 ... 0x2F) as ClosedRange<UInt8>).union(0x3A ... 0x40).union(0x5B ... 0x60)
        .union(0x7B ... 0x7E)
    public static let asciiPrintable = Set((0x20 ... 0x7E) as ClosedRange<UInt8>)

    /// Every character a password may hold: what is allowed and what is required (ASCII only;
    /// `unicode` counts as all of printable ASCII here, which is what a generator draws from).
    public var permitted: Set<UInt8> {
        if allowed == nil, required.isEmpty { return Self.asciiPrintable }
        var all = allowed ?? []
        for set in required { all.formUnion(set) }
        return allowsUnicode ? Self.asciiPrintable : all
    }

    public init(parsing text: String) throws(ParseError) {
        var parser = Parser(bytes: Array(text.utf8))
        try parser.parse(into: &self)
    }

    private struct Parser {
        let bytes: [UInt8]
        var position = 0

        func error(_ problem: String) -> ParseError { ParseError(column: position + 1, problem: problem) }

        var current: UInt8? { position < bytes.count ? bytes[position] : nil }

        mutating func skipSpace() {
            while let byte = current, [0x20, 0x09, 0x0A, 0x0D, 0x0C].contains(byte) { position += 1 }
        }

        mutating func identifier() -> String {
            let start = position
            while let byte = current,
                byte == UInt8(ascii: "-") || (0x41 ... 0x5A).contains(byte) || (0x61 ... 0x7A).contains(byte)
            {
                position += 1
            }
            return String(decoding: bytes[start ..< position], as: UTF8.self).lowercased()
        }

        mutating func parse(into rules: inout PasswordRules) throws(ParseError) {
            while true {
                skipSpace()
                guard current != nil else { return }
                if current == UInt8(ascii: ";") { position += 1; continue }
                let name = identifier()
                guard !name.isEmpty else {
                    throw error("expected a property name (required, allowed, max-consecutive, minlength, maxlength)")
                }
                skipSpace()
                guard current == UInt8(ascii: ":") else { throw error("expected ':' after '\(name)'") }
                position += 1
                skipSpace()
                switch name {
                case "required":
                    let (set, unicode) = try classes()
                    rules.required.append(set)
                    rules.allowsUnicode = rules.allowsUnicode || unicode
                case "allowed":
                    let (set, unicode) = try classes()
                    rules.allowed = (rules.allowed ?? []).union(set)
                    rules.allowsUnicode = rules.allowsUnicode || unicode
                case "minlength":
                    let value = try integer()
                    rules.minimumLength = max(rules.minimumLength ?? 0, value)
                case "maxlength":
                    let value = try integer()
                    rules.maximumLength = min(rules.maximumLength ?? Int.max, value)
                case "max-consecutive":
                    let value = try integer()
                    rules.maximumConsecutive = min(rules.maximumConsecutive ?? Int.max, value)
                default:
                    // Unknown: skipped to the end of the property, as the proposal says.
                    while let byte = current, byte != UInt8(ascii: ";") { position += 1 }
                    continue
                }
                skipSpace()
                guard current == nil || current == UInt8(ascii: ";") else {
                    throw error("expected ';' after the '\(name)' property")
                }
            }
        }

        mutating func integer() throws(ParseError) -> Int {
            let start = position
            while let byte = current, (0x30 ... 0x39).contains(byte) { position += 1 }
            guard position > start, position - start <= 6,
                let value = Int(String(decoding: bytes[start ..< position], as: UTF8.self))
            else {
                position = start
                throw error("expected a number")
            }
            return value
        }

        /// A comma-separated list of classes, as one set.
        mutating func classes() throws(ParseError) -> (Set<UInt8>, unicode: Bool) {
            var set = Set<UInt8>()
            var unicode = false
            while true {
                skipSpace()
                if current == UInt8(ascii: "[") {
                    set.formUnion(try customClass())
                } else {
                    let start = position
                    switch identifier() {
                    case "upper": set.formUnion(PasswordRules.upper)
                    case "lower": set.formUnion(PasswordRules.lower)
                    case "digit": set.formUnion(PasswordRules.digit)
                    case "special": set.formUnion(PasswordRules.special)
                    case "ascii-printable": set.formUnion(PasswordRules.asciiPrintable)
                    case "unicode":
                        set.formUnion(PasswordRules.asciiPrintable)
                        unicode = true
                    case "":
                        throw error(
                            "expected a character class (upper, lower, digit, special, ascii-printable, unicode or [...])"
                        )
                    case let other:
                        position = start
                        throw error(
                            "'\(other)' is not a character class (upper, lower, digit, special, ascii-printable, unicode or [...])"
                        )
                    }
                }
                skipSpace()
                guard current == UInt8(ascii: ",") else { return (set, unicode) }
                position += 1
            }
        }

        /// `[...]`: printable ASCII (anything else is skipped, as Apple's parser does), a '-' only first and a ']' only last.
        mutating func customClass() throws(ParseError) -> Set<UInt8> {
            let open = position
            position += 1
            var set = Set<UInt8>()
            var first = true
            while true {
                guard let byte = current else {
                    position = open
                    throw error("a '[' without its ']'")
                }
                if byte == UInt8(ascii: "]") {
                    // "[]]" or "[-]]": a ']' right before the closing one belongs to the set.
                    if position + 1 < bytes.count, bytes[position + 1] == UInt8(ascii: "]") {
                        set.insert(byte)
                        position += 2
                    } else {
                        position += 1
                    }
                    return set
                }
                guard (0x20 ... 0x7E).contains(byte) else {
                    // Skipped, as Apple's parser does: a set names ASCII characters only.
                    position += 1
                    continue
                }
                if byte == UInt8(ascii: "-"), !first { throw error("a '-' may only come first in [...]") }
                set.insert(byte)
                first = false
                position += 1
            }
        }
    }
}
