import UnicodeText
import VaultCrypto
import VaultModel

/// One element of an XML document, its character data in protected memory.
///
/// Names and attributes are structure (`Entry`, `Key`, `ProtectInMemory="True"`), so they are
/// `String`s; the text between the tags is where KeePass puts every value, passwords included,
/// so it is a reference into the arena. Immutable once read, and so `Sendable`.
public final class XMLElement: Sendable {
    public let name: String
    public let attributes: [String: String]
    public let children: [XMLElement]
    /// The element's own character data (text and CDATA, entities resolved), concatenated.
    public let text: SecretReference
    /// The line of the element's start tag.
    public let line: Int

    init(name: String, attributes: [String: String], children: [XMLElement], text: SecretReference, line: Int) {
        self.name = name
        self.attributes = attributes
        self.children = children
        self.text = text
        self.line = line
    }

    /// The first child element named `name`.
    public func child(_ name: String) -> XMLElement? {
        children.first { $0.name == name }
    }

    /// Every child element named `name`, in document order.
    public func children(_ name: String) -> [XMLElement] {
        children.filter { $0.name == name }
    }
}

/// Reads as much XML 1.0 as KeePass 2 exports (KeePass and KeePassXC) use, into protected memory.
///
/// That is: an optional UTF-8 BOM, the `<?xml ...?>` declaration, comments and processing
/// instructions (skipped), elements with attributes in either quote, self-closing tags, CDATA
/// sections, the five predefined entities and numeric character references. Line ends are
/// normalised as XML requires (CR LF and a lone CR become LF), in text and attribute values alike.
///
/// What it refuses, deliberately: a DOCTYPE with an internal subset (`[`), because that is where
/// entities are declared, and entity expansion is the classic attack on XML readers (a "billion
/// laughs" file of a few kilobytes expanding to gigabytes); any entity but the five predefined
/// ones, for the same reason; character references to code points XML does not allow (NUL, most
/// controls, surrogates), which no real export contains; nesting deeper than 256 elements, which
/// would otherwise be a stack overflow away from a crash. Mismatched and unclosed tags are errors
/// that name the element and the line it was opened on. Namespaces are not interpreted: a
/// prefixed name is just a name with a colon.
///
/// How text reaches the arena without passing through a `String`: one scratch `SecureBytes` is
/// used as a stack. An element appends its text at the end of the scratch; a child element
/// appends its own text after it, stores that part into the arena when its end tag comes, and
/// cuts the scratch back (zeroing it) to where it found it, so the parent's text continues
/// undisturbed. One protected buffer then serves the whole document, however deep. Whitespace
/// between elements is text too and is kept: the mapper trims what it needs.
public enum XMLReader {
    public static let maximumDepth = 256

    public static func document(_ bytes: UnsafeRawBufferPointer, into arena: SecretArena) throws(ImportFailure)
        -> XMLElement
    {
        let input = try InputText(validating: bytes)
        var parser = try XMLParser(input: input, arena: arena)
        try parser.skipProlog()
        guard parser.index < input.count else { throw ImportFailure("the file is empty") }
        guard parser.input[parser.index] == UInt8(ascii: "<") else {
            throw parser.failure("expected the root element")
        }
        let root = try parser.parseElement(depth: 1)
        try parser.skipMisc()
        if parser.index < input.count {
            throw parser.failure("content after the root element")
        }
        return root
    }
}

/// The state of one read: where it is, and the scratch stack of character data.
private struct XMLParser: ~Copyable {
    var input: InputText
    let arena: SecretArena
    var index: Int
    var scratch: SecureBytes

    init(input: InputText, arena: SecretArena) throws(ImportFailure) {
        self.input = input
        self.arena = arena
        index = input.start
        scratch = try ImportFailure.inProtectedMemory { () throws(VaultCryptoError) in try SecureBytes(capacity: 4096) }
    }

    func failure(_ reason: String) -> ImportFailure {
        input.failure(at: index, reason)
    }

    func failure(at offset: Int, _ reason: String) -> ImportFailure {
        input.failure(at: offset, reason)
    }

    func hasPrefix(_ prefix: StaticString) -> Bool {
        let length = prefix.utf8CodeUnitCount
        guard index + length <= input.count else { return false }
        return prefix.withUTF8Buffer { expected in
            (0 ..< length).allSatisfy { input[index + $0] == expected[$0] }
        }
    }

    @discardableResult
    mutating func skipWhitespace() -> Bool {
        let start = index
        while index < input.count, isWhitespace(input[index]) { index += 1 }
        return index > start
    }

    // MARK: Outside the root element

    /// The XML declaration, comments, processing instructions, whitespace and one DOCTYPE.
    mutating func skipProlog() throws(ImportFailure) {
        var sawDoctype = false
        while true {
            try skipMisc()
            guard hasPrefix("<!DOCTYPE") else { return }
            if sawDoctype { throw failure("a second DOCTYPE") }
            sawDoctype = true
            try skipDoctype()
        }
    }

    /// Whitespace, comments and processing instructions.
    mutating func skipMisc() throws(ImportFailure) {
        while true {
            skipWhitespace()
            if hasPrefix("<!--") {
                try skipComment()
            } else if hasPrefix("<?") {
                try skipProcessingInstruction()
            } else {
                return
            }
        }
    }

    /// `<!DOCTYPE name "external id">`, quotes respected; an internal subset is refused.
    mutating func skipDoctype() throws(ImportFailure) {
        let start = index
        index += 9
        var quote: UInt8? = nil
        while index < input.count {
            let byte = input[index]
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: "[") {
                throw failure("a DOCTYPE with an internal subset (refused: it can declare entities)")
            } else if byte == UInt8(ascii: ">") {
                index += 1
                return
            }
            index += 1
        }
        throw failure(at: start, "a DOCTYPE that is never closed")
    }

    mutating func skipComment() throws(ImportFailure) {
        try skip(opening: 4, through: "-->", "a comment")
    }

    mutating func skipProcessingInstruction() throws(ImportFailure) {
        try skip(opening: 2, through: "?>", "a processing instruction")
    }

    /// Past a construct `opening` bytes long at the index, through its `end`.
    private mutating func skip(opening: Int, through end: StaticString, _ what: String) throws(ImportFailure) {
        let start = index
        index += opening
        while index < input.count {
            if hasPrefix(end) {
                index += end.utf8CodeUnitCount
                return
            }
            index += 1
        }
        throw failure(at: start, "\(what) that is never closed")
    }

    // MARK: Elements

    /// The element whose `<` is at `index`, through its end tag.
    mutating func parseElement(depth: Int) throws(ImportFailure) -> XMLElement {
        if depth > XMLReader.maximumDepth {
            throw failure("elements nested deeper than \(XMLReader.maximumDepth) levels")
        }
        let open = index
        let line = input.line(at: open)
        index += 1
        let name = try parseName("an element name")
        var attributes: [String: String] = [:]
        var selfClosing = false
        while true {
            let spaced = skipWhitespace()
            guard index < input.count else {
                throw failure(at: open, "the start tag of <\(PrintableText.echoed(name))> is never closed")
            }
            let byte = input[index]
            if byte == UInt8(ascii: ">") {
                index += 1
                break
            }
            if byte == UInt8(ascii: "/") {
                guard index + 1 < input.count, input[index + 1] == UInt8(ascii: ">") else {
                    throw failure("expected '>' after '/' in the start tag of <\(PrintableText.echoed(name))>")
                }
                index += 2
                selfClosing = true
                break
            }
            guard spaced else {
                throw failure("expected whitespace before an attribute of <\(PrintableText.echoed(name))>")
            }
            let attributeStart = index
            let attribute = try parseName("an attribute name")
            skipWhitespace()
            guard index < input.count, input[index] == UInt8(ascii: "=") else {
                throw failure(
                    "expected '=' after the attribute \(PrintableText.echoed(attribute)) of <\(PrintableText.echoed(name))>"
                )
            }
            index += 1
            skipWhitespace()
            let value = try parseAttributeValue()
            if attributes[attribute] != nil {
                throw failure(
                    at: attributeStart,
                    "the attribute \(PrintableText.echoed(attribute)) appears twice in <\(PrintableText.echoed(name))>")
            }
            attributes[attribute] = value
        }

        let textStart = scratch.count
        var children: [XMLElement] = []
        if !selfClosing {
            try parseContent(of: name, openedAt: open, line: line, depth: depth, children: &children)
        }
        let text = try storeText(from: textStart)
        return XMLElement(name: name, attributes: attributes, children: children, text: text, line: line)
    }

    /// Everything between the start tag of `name` and its end tag (which it consumes): text onto
    /// the scratch, child elements into `children`.
    mutating func parseContent(
        of name: String, openedAt open: Int, line: Int, depth: Int,
        children: inout [XMLElement]
    ) throws(ImportFailure) {
        while true {
            guard index < input.count else {
                throw failure(
                    at: open, "the element <\(PrintableText.echoed(name))> opened on line \(line) is never closed")
            }
            let byte = input[index]
            if byte == UInt8(ascii: "<") {
                if hasPrefix("</") {
                    let endTag = index
                    index += 2
                    let closing = try parseName("an element name in an end tag")
                    skipWhitespace()
                    guard index < input.count, input[index] == UInt8(ascii: ">") else {
                        throw failure("expected '>' to end the end tag </\(PrintableText.echoed(closing))>")
                    }
                    guard closing == name else {
                        throw failure(
                            at: endTag,
                            "the end tag </\(PrintableText.echoed(closing))> does not match <\(PrintableText.echoed(name))> opened on line \(line)"
                        )
                    }
                    index += 1
                    return
                } else if hasPrefix("<!--") {
                    try skipComment()
                } else if hasPrefix("<![CDATA[") {
                    try appendCDATA()
                } else if hasPrefix("<?") {
                    try skipProcessingInstruction()
                } else if hasPrefix("<!") {
                    throw failure("a markup declaration inside an element")
                } else {
                    children.append(try parseElement(depth: depth + 1))
                }
            } else if byte == UInt8(ascii: "&") {
                let scalar = try parseReference()
                try appendScalar(scalar)
            } else {
                let start = index
                while index < input.count, input[index] != UInt8(ascii: "<"), input[index] != UInt8(ascii: "&") {
                    index += 1
                }
                try appendCharacterData(start ..< index)
            }
        }
    }

    /// `<![CDATA[ ... ]]>`: its content verbatim (line ends normalised).
    mutating func appendCDATA() throws(ImportFailure) {
        let open = index
        index += 9
        let start = index
        while index < input.count {
            if hasPrefix("]]>") {
                try appendCharacterData(start ..< index)
                index += 3
                return
            }
            index += 1
        }
        throw failure(at: open, "a CDATA section that is never closed")
    }

    /// Appends `range` of the input to the scratch, CR LF and lone CR as LF, refusing the control
    /// characters XML does not allow.
    mutating func appendCharacterData(_ range: Range<Int>) throws(ImportFailure) {
        var runStart = range.lowerBound
        var offset = range.lowerBound
        while offset < range.upperBound {
            let byte = input[offset]
            if byte == 0x0D {
                try append(input.slice(runStart ..< offset))
                try append(byte: 0x0A)
                offset += 1
                if offset < range.upperBound, input[offset] == 0x0A { offset += 1 }
                runStart = offset
                continue
            }
            if byte < 0x20 && byte != 0x09 && byte != 0x0A {
                throw failure(at: offset, "a control character that XML does not allow")
            }
            offset += 1
        }
        try append(input.slice(runStart ..< range.upperBound))
    }

    /// Stores the scratch from `start` on (the text of the element just ended) into the arena,
    /// then cuts the scratch back to `start`, zeroing what it held.
    mutating func storeText(from start: Int) throws(ImportFailure) -> SecretReference {
        let arena = self.arena
        let stored: SecretReference?
        stored = scratch.withUnsafeBytes { all -> SecretReference? in
            try? arena.store(UnsafeRawBufferPointer(rebasing: all[start...]))
        }
        scratch.removeLast(scratch.count - start)
        guard let stored else { throw ImportFailure("cannot store a value in protected memory") }
        return stored
    }

    // MARK: Names, attributes, references

    /// A name: a letter, `_`, `:` or any non-ASCII character, then also digits, `-` and `.`.
    mutating func parseName(_ what: String) throws(ImportFailure) -> String {
        let start = index
        guard index < input.count, isNameStart(input[index]) else { throw failure("expected \(what)") }
        index += 1
        while index < input.count, isNameStart(input[index]) || isNameRest(input[index]) { index += 1 }
        return String(decoding: input.slice(start ..< index), as: UTF8.self)
    }

    /// A quoted attribute value, references resolved and whitespace characters as spaces (XML's
    /// attribute-value normalisation). Attribute values are structure, so a `String`.
    mutating func parseAttributeValue() throws(ImportFailure) -> String {
        guard index < input.count, input[index] == UInt8(ascii: "\"") || input[index] == UInt8(ascii: "'") else {
            throw failure("expected a quoted attribute value")
        }
        let open = index
        let quote = input[index]
        index += 1
        var value: [UInt8] = []
        while true {
            guard index < input.count else { throw failure(at: open, "an attribute value that is never closed") }
            let byte = input[index]
            switch byte {
            case quote:
                index += 1
                return String(decoding: value, as: UTF8.self)
            case UInt8(ascii: "<"):
                throw failure("a '<' inside an attribute value")
            case UInt8(ascii: "&"):
                let encoded = Self.utf8(try parseReference())
                value.append(contentsOf: encoded)
            case 0x0D:
                value.append(0x20)
                index += 1
                if index < input.count, input[index] == 0x0A { index += 1 }
            case 0x09, 0x0A:
                value.append(0x20)
                index += 1
            case 0x00 ..< 0x20:
                throw failure("a control character that XML does not allow")
            default:
                value.append(byte)
                index += 1
            }
        }
    }

    /// The reference at `index` (its `&`) through its `;`: one of the five predefined entities or
    /// a character reference to a code point XML allows.
    mutating func parseReference() throws(ImportFailure) -> UInt32 {
        let ampersand = index
        index += 1
        let nameStart = index
        // No reference XML allows here is longer than `#x10FFFF`, with room for leading zeros.
        while index < input.count, index - nameStart < 16, input[index] != UInt8(ascii: ";") { index += 1 }
        guard index < input.count, input[index] == UInt8(ascii: ";") else {
            throw failure(at: ampersand, "a '&' that does not start a reference (write &amp;)")
        }
        let name = input.slice(nameStart ..< index)
        index += 1
        if name.first == UInt8(ascii: "#") {
            guard let scalar = Self.characterReference(UnsafeRawBufferPointer(rebasing: name.dropFirst())) else {
                throw failure(at: ampersand, "a malformed character reference")
            }
            guard Self.isXMLCharacter(scalar) else {
                throw failure(at: ampersand, "a character reference to a code point that XML does not allow")
            }
            return scalar
        }
        switch String(decoding: name, as: UTF8.self) {
        case "lt": return 0x3C
        case "gt": return 0x3E
        case "amp": return 0x26
        case "quot": return 0x22
        case "apos": return 0x27
        default: throw failure(at: ampersand, "an unknown entity reference (only the five predefined ones are read)")
        }
    }

    /// The code point of `NN` (decimal) or `xNN` (hexadecimal), or nil when malformed.
    static func characterReference(_ digits: UnsafeRawBufferPointer) -> UInt32? {
        var rest = digits[...]
        var radix: UInt32 = 10
        if rest.first == UInt8(ascii: "x") {
            radix = 16
            rest = rest.dropFirst()
        }
        guard !rest.isEmpty else { return nil }
        var value: UInt32 = 0
        for byte in rest {
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0") ... UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a") ... UInt8(ascii: "f") where radix == 16:
                digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A") ... UInt8(ascii: "F") where radix == 16:
                digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: return nil
            }
            value = value * radix + digit
            if value > 0x10FFFF { return 0x110000 }  // out of range: refused by isXMLCharacter
        }
        return value
    }

    /// XML 1.0's `Char`: tab, LF, CR, and the rest of Unicode but controls, surrogates, U+FFFE and U+FFFF.
    static func isXMLCharacter(_ scalar: UInt32) -> Bool {
        switch scalar {
        case 0x09, 0x0A, 0x0D, 0x20 ... 0xD7FF, 0xE000 ... 0xFFFD, 0x10000 ... 0x10FFFF: return true
        default: return false
        }
    }

    /// The UTF-8 of a code point, for an attribute value (which is structure, not a secret).
    static func utf8(_ scalar: UInt32) -> [UInt8] {
        guard let unicode = Unicode.Scalar(scalar), let encoded = UTF8.encode(unicode) else { return [] }
        return Array(encoded)
    }

    // MARK: The scratch

    /// Appends the UTF-8 of `scalar` one byte at a time (a reference may be part of a password:
    /// it goes nowhere but the scratch).
    mutating func appendScalar(_ scalar: UInt32) throws(ImportFailure) {
        switch scalar {
        case 0 ..< 0x80:
            try append(byte: UInt8(scalar))
        case 0x80 ..< 0x800:
            try append(byte: UInt8(0xC0 | scalar >> 6))
            try append(byte: UInt8(0x80 | scalar & 0x3F))
        case 0x800 ..< 0x10000:
            try append(byte: UInt8(0xE0 | scalar >> 12))
            try append(byte: UInt8(0x80 | scalar >> 6 & 0x3F))
            try append(byte: UInt8(0x80 | scalar & 0x3F))
        default:
            try append(byte: UInt8(0xF0 | scalar >> 18))
            try append(byte: UInt8(0x80 | scalar >> 12 & 0x3F))
            try append(byte: UInt8(0x80 | scalar >> 6 & 0x3F))
            try append(byte: UInt8(0x80 | scalar & 0x3F))
        }
    }

    mutating func append(byte: UInt8) throws(ImportFailure) {
        try ImportFailure.inProtectedMemory { () throws(VaultCryptoError) in try scratch.append(byte) }
    }

    mutating func append(_ bytes: UnsafeRawBufferPointer) throws(ImportFailure) {
        try ImportFailure.inProtectedMemory { () throws(VaultCryptoError) in try scratch.append(contentsOf: bytes) }
    }
}

private func isWhitespace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
}

private func isNameStart(_ byte: UInt8) -> Bool {
    (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
        || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ":") || byte >= 0x80
}

private func isNameRest(_ byte: UInt8) -> Bool {
    (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
}
