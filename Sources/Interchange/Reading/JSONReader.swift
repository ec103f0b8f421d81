import VaultCrypto
import VaultModel

/// A JSON document whose strings are in protected memory.
///
/// Object keys are structure (`"password"`, `"items"`), so they are `String`s and can be looked
/// up; every string *value* may be a secret, so it is a reference into the arena. Numbers keep
/// their text: an export's numbers are identifiers and timestamps, which a `Double` would round.
/// Members keep their order and duplicates; `subscript` takes the first, as most readers do.
public indirect enum JSONValue: Sendable {
    case object([(key: String, value: JSONValue)])
    case array([JSONValue])
    case string(SecretReference)
    case number(String)
    case bool(Bool)
    case null

    /// The first member named `key`, when this is an object.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }
}

/// Reads JSON (RFC 8259) into protected memory.
///
/// A recursive descent over the bytes, strict where the RFC is: no trailing commas, no comments,
/// no single quotes, no leading zeros or bare `.5`, no control characters inside strings, nothing
/// but whitespace after the value. An optional UTF-8 BOM is stepped over (RFC 8259 lets a parser
/// do so, and Windows tools write one). The input is checked to be UTF-8 as a whole first.
///
/// A string value is unescaped into one scratch `SecureBytes` and stored from there (or from the
/// input directly when it has no escape); it never becomes a `String`. `\uXXXX` escapes are
/// decoded with their surrogate pairs, and a surrogate without its partner is refused rather than
/// replaced: silently changing a password would lock its owner out.
///
/// Nesting is limited to 256 levels, each level being one call: a hostile file of a million `[`
/// would otherwise overflow the stack. Errors name the line and column of the offending byte.
public enum JSONReader {
    public static let maximumDepth = 256

    public static func value(_ bytes: UnsafeRawBufferPointer, into arena: SecretArena) throws(ImportFailure)
        -> JSONValue
    {
        let input = try InputText(validating: bytes)
        var parser = try JSONParser(input: input, arena: arena)
        parser.skipWhitespace()
        if parser.index == input.count { throw ImportFailure("the file is empty") }
        let value = try parser.parseValue(depth: 0)
        parser.skipWhitespace()
        if parser.index < input.count {
            throw input.failure(at: parser.index, "unexpected data after the JSON value")
        }
        return value
    }
}

/// The state of one read: where it is, and the scratch buffer string values are unescaped into.
/// A failure throws the parser away, and with it the scratch, which `SecureBytes` zeroes.
private struct JSONParser: ~Copyable {
    let input: InputText
    let arena: SecretArena
    var index: Int
    var scratch: SecureBytes

    init(input: InputText, arena: SecretArena) throws(ImportFailure) {
        self.input = input
        self.arena = arena
        index = input.start
        scratch = try ImportFailure.inProtectedMemory { () throws(VaultCryptoError) in try SecureBytes(capacity: 256) }
    }

    mutating func skipWhitespace() {
        while index < input.count {
            switch input[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    func failure(_ reason: String) -> ImportFailure {
        input.failure(at: index, reason)
    }

    mutating func parseValue(depth: Int) throws(ImportFailure) -> JSONValue {
        guard index < input.count else { throw failure("unexpected end of file, expected a value") }
        switch input[index] {
        case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try parseSecretString())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0") ... UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw failure("unexpected character, expected a value")
        }
    }

    mutating func parseObject(depth: Int) throws(ImportFailure) -> JSONValue {
        if depth > JSONReader.maximumDepth { throw failure("nesting deeper than \(JSONReader.maximumDepth) levels") }
        index += 1  // {
        var members: [(key: String, value: JSONValue)] = []
        skipWhitespace()
        if index < input.count, input[index] == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard index < input.count, input[index] == UInt8(ascii: "\"") else {
                throw failure(
                    index < input.count ? "expected a member name in quotes" : "unexpected end of file in an object")
            }
            let key = try parseKey()
            skipWhitespace()
            guard index < input.count, input[index] == UInt8(ascii: ":") else {
                throw failure("expected ':' after a member name")
            }
            index += 1
            skipWhitespace()
            let value = try parseValue(depth: depth)
            members.append((key: key, value: value))
            skipWhitespace()
            guard index < input.count else { throw failure("unexpected end of file in an object") }
            switch input[index] {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"): index += 1; return .object(members)
            default: throw failure("expected ',' or '}' in an object")
            }
        }
    }

    mutating func parseArray(depth: Int) throws(ImportFailure) -> JSONValue {
        if depth > JSONReader.maximumDepth { throw failure("nesting deeper than \(JSONReader.maximumDepth) levels") }
        index += 1  // [
        var elements: [JSONValue] = []
        skipWhitespace()
        if index < input.count, input[index] == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue(depth: depth))
            skipWhitespace()
            guard index < input.count else { throw failure("unexpected end of file in an array") }
            switch input[index] {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"): index += 1; return .array(elements)
            default: throw failure("expected ',' or ']' in an array")
            }
        }
    }

    mutating func literal(_ word: StaticString) throws(ImportFailure) {
        let length = word.utf8CodeUnitCount
        let matches = word.withUTF8Buffer { expected in
            index + length <= input.count && (0 ..< length).allSatisfy { input[index + $0] == expected[$0] }
        }
        guard matches else { throw failure("unexpected character, expected a value") }
        index += length
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, kept as its text.
    mutating func parseNumber() throws(ImportFailure) -> String {
        let start = index
        if input[index] == UInt8(ascii: "-") { index += 1 }
        guard index < input.count, isDigit(input[index]) else { throw failure("a number without digits") }
        if input[index] == UInt8(ascii: "0") {
            index += 1
            if index < input.count, isDigit(input[index]) { throw failure("a number with a leading zero") }
        } else {
            skipDigits()
        }
        if index < input.count, input[index] == UInt8(ascii: ".") {
            index += 1
            guard index < input.count, isDigit(input[index]) else {
                throw failure("a number without digits after its '.'")
            }
            skipDigits()
        }
        if index < input.count, input[index] == UInt8(ascii: "e") || input[index] == UInt8(ascii: "E") {
            index += 1
            if index < input.count, input[index] == UInt8(ascii: "+") || input[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard index < input.count, isDigit(input[index]) else {
                throw failure("a number without digits in its exponent")
            }
            skipDigits()
        }
        return String(decoding: input.slice(start ..< index), as: UTF8.self)
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private mutating func skipDigits() {
        while index < input.count, isDigit(input[index]) { index += 1 }
    }

    /// A string value, into the arena.
    mutating func parseSecretString() throws(ImportFailure) -> SecretReference {
        let (start, end, escaped) = try scanString()
        do {
            if escaped {
                let reference = try arena.store(scratch)
                scratch.removeAll()
                return reference
            }
            return try arena.store(input.slice(start ..< end))
        } catch {
            throw ImportFailure("cannot store a value in protected memory: \(error)")
        }
    }

    /// A member name: structure, so a `String`.
    mutating func parseKey() throws(ImportFailure) -> String {
        let (start, end, escaped) = try scanString()
        if escaped {
            let key = scratch.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
            scratch.removeAll()
            return key
        }
        return String(decoding: input.slice(start ..< end), as: UTF8.self)
    }

    /// Walks the string at `index` (its opening quote) and leaves `index` after its closing quote.
    /// Without an escape, the content is the input's `start ..< end`; with one, the unescaped
    /// content is in `scratch` (and `escaped` is true).
    private mutating func scanString() throws(ImportFailure) -> (start: Int, end: Int, escaped: Bool) {
        let opening = index
        index += 1
        let start = index
        var runStart = index
        var escaped = false
        while true {
            guard index < input.count else {
                throw input.failure(at: opening, "a string that is never closed")
            }
            let byte = input[index]
            if byte == UInt8(ascii: "\"") {
                if escaped { try append(input.slice(runStart ..< index)) }
                let end = index
                index += 1
                return (start, end, escaped)
            }
            if byte < 0x20 {
                throw failure("a control character in a string (it must be escaped)")
            }
            if byte == UInt8(ascii: "\\") {
                if !escaped {
                    scratch.removeAll()
                    escaped = true
                }
                try append(input.slice(runStart ..< index))
                try unescape()
                runStart = index
                continue
            }
            index += 1
        }
    }

    /// Decodes the escape at `index` (its backslash) into `scratch`.
    private mutating func unescape() throws(ImportFailure) {
        let escapeStart = index
        guard index + 1 < input.count else {
            throw failure("unexpected end of file in an escape")
        }
        let letter = input[index + 1]
        index += 2
        let simple: UInt8?
        switch letter {
        case UInt8(ascii: "\""): simple = 0x22
        case UInt8(ascii: "\\"): simple = 0x5C
        case UInt8(ascii: "/"): simple = 0x2F
        case UInt8(ascii: "b"): simple = 0x08
        case UInt8(ascii: "f"): simple = 0x0C
        case UInt8(ascii: "n"): simple = 0x0A
        case UInt8(ascii: "r"): simple = 0x0D
        case UInt8(ascii: "t"): simple = 0x09
        case UInt8(ascii: "u"): simple = nil
        default:
            throw input.failure(at: escapeStart, "an unknown escape")
        }
        if let simple {
            try appendByte(simple)
            return
        }
        var scalar = try hex4(escapeStart)
        if scalar >= 0xDC00 && scalar <= 0xDFFF {
            throw input.failure(at: escapeStart, "a lone surrogate in a \\u escape")
        }
        if scalar >= 0xD800 && scalar <= 0xDBFF {
            // The high half of a pair: the low half must follow as another \u escape.
            let lowStart = index
            guard index + 1 < input.count, input[index] == UInt8(ascii: "\\"), input[index + 1] == UInt8(ascii: "u")
            else {
                throw input.failure(at: escapeStart, "a lone surrogate in a \\u escape")
            }
            index += 2
            let low = try hex4(lowStart)
            guard low >= 0xDC00 && low <= 0xDFFF else {
                throw input.failure(at: escapeStart, "a lone surrogate in a \\u escape")
            }
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
        }
        try appendScalar(scalar)
    }

    /// Four hexadecimal digits at `index`, for the escape that starts at `escapeStart`.
    private mutating func hex4(_ escapeStart: Int) throws(ImportFailure) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0 ..< 4 {
            guard index < input.count else {
                throw input.failure(at: escapeStart, "a \\u escape without four hexadecimal digits")
            }
            let byte = input[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0") ... UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a") ... UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A") ... UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default:
                throw input.failure(at: escapeStart, "a \\u escape without four hexadecimal digits")
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    private mutating func appendScalar(_ scalar: UInt32) throws(ImportFailure) {
        switch scalar {
        case 0 ..< 0x80:
            try appendByte(UInt8(scalar))
        case 0x80 ..< 0x800:
            try appendByte(UInt8(0xC0 | scalar >> 6))
            try appendByte(UInt8(0x80 | scalar & 0x3F))
        case 0x800 ..< 0x10000:
            try appendByte(UInt8(0xE0 | scalar >> 12))
            try appendByte(UInt8(0x80 | scalar >> 6 & 0x3F))
            try appendByte(UInt8(0x80 | scalar & 0x3F))
        default:
            try appendByte(UInt8(0xF0 | scalar >> 18))
            try appendByte(UInt8(0x80 | scalar >> 12 & 0x3F))
            try appendByte(UInt8(0x80 | scalar >> 6 & 0x3F))
            try appendByte(UInt8(0x80 | scalar & 0x3F))
        }
    }

    private mutating func appendByte(_ byte: UInt8) throws(ImportFailure) {
        try ImportFailure.inProtectedMemory { () throws(VaultCryptoError) in try scratch.append(byte) }
    }

    private mutating func append(_ bytes: UnsafeRawBufferPointer) throws(ImportFailure) {
        try ImportFailure.inProtectedMemory { () throws(VaultCryptoError) in try scratch.append(contentsOf: bytes) }
    }
}
