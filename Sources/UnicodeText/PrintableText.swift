/// Text from outside (a vault's titles, an export's names, a pass store's file names, a path, what
/// the user typed) made safe to show: the one function every message and every non-JSON output
/// passes such text through.
///
/// Written raw, a control character is an instruction to the terminal: ESC sequences retitle
/// the window (`ESC ]2;`), clear the screen or move the cursor; C1's CSI (U+009B) does the same on
/// terminals that read 8-bit controls; a newline forges a line of pwtui's own output. Bidi
/// controls reorder what is shown (`invoice<U+202E>gpj.exe` reads "invoiceexe.jpg"), and
/// zero-width characters make two different names look the same. So each of them is shown as an
/// escape instead, visibly and in one scheme:
///
/// - `\n`, `\r`, `\t` and `\e` (ESC) for the four a reader knows by those names;
/// - `\u{HHHH}` (Swift's spelling, upper-case hex, at least two digits) for every other: the rest
///   of C0 and DEL, C1 (U+0080–U+009F), the bidi controls (U+061C, U+200E, U+200F,
///   U+202A–U+202E, U+2066–U+2069), the zero-width characters (U+200B–U+200D, U+2060, U+FEFF) and
///   the line and paragraph separators (U+2028, U+2029).
///
/// Everything else, backslashes included, passes through unchanged: the escapes are for reading,
/// not for decoding back. The picker needs none of this: its canvas skips characters of no width
/// and draws controls as U+FFFD (`Canvas.put`).
public enum PrintableText {
    /// How many characters of echoed input a message repeats (`echoed`).
    public static let echoLimit = 200

    /// `text` with every unsafe scalar (see above) escaped, newlines included: for a name, a
    /// title, a cell of a table, anything that must stay on one line.
    public static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isUnsafe) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            if isUnsafe(scalar) { result += escape(scalar) } else { result.unicodeScalars.append(scalar) }
        }
        return result
    }

    /// A whole message or prompt that pwtui composed: as `escaped`, but its own line breaks (and
    /// tabs) kept. Names inside it that could hold a newline go through `escaped` first.
    public static func message(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { isUnsafe($0) && $0 != "\n" && $0 != "\t" }) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            if isUnsafe(scalar), scalar != "\n", scalar != "\t" {
                result += escape(scalar)
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Input repeated in a message (a rules text, an element name, a field's name): `escaped`,
    /// and cut to its first `limit` characters with the full length after it, so that 5 MB of
    /// input does not make a 5 MB message.
    public static func echoed(_ text: String, limit: Int = echoLimit) -> String {
        var count = 0
        var cut = text.endIndex
        for index in text.indices {
            if count == limit { cut = index; break }
            count += 1
        }
        guard cut < text.endIndex else { return escaped(text) }
        return escaped(String(text[..<cut])) + "… (\(text.count) characters in all)"
    }

    /// JSON text (an encoder's output) with the unsafe scalars its encoder leaves raw (C1, bidi,
    /// zero-width: JSON requires escaping only C0) written as `\uHHHH`. These scalars can only be
    /// inside strings, where the escape means the same scalar: the JSON stays valid and decodes
    /// to the same values, and a terminal showing it is not driven by it.
    public static func jsonEscaped(_ json: String) -> String {
        guard json.unicodeScalars.contains(where: isUnsafe) else { return json }
        var result = ""
        result.reserveCapacity(json.utf8.count + 8)
        for scalar in json.unicodeScalars {
            guard isUnsafe(scalar) else {
                result.unicodeScalars.append(scalar)
                continue
            }
            // A raw C0 is invalid JSON already; escaping it too keeps the guarantee whoever encoded.
            result += "\\u" + Hex.lower(scalar.value, width: 4)
        }
        return result
    }

    /// Whether `scalar` is one that `escaped` rewrites.
    public static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00 ... 0x1F, 0x7F ... 0x9F: return true  // C0, DEL, C1
        case 0x061C, 0x200E, 0x200F, 0x202A ... 0x202E, 0x2066 ... 0x2069: return true  // bidi controls
        case 0x200B ... 0x200D, 0x2060, 0xFEFF: return true  // zero width
        case 0x2028, 0x2029: return true  // line and paragraph separators
        default: return false
        }
    }

    private static func escape(_ scalar: Unicode.Scalar) -> String {
        switch scalar {
        case "\n": return "\\n"
        case "\r": return "\\r"
        case "\t": return "\\t"
        case "\u{1B}": return "\\e"
        default: return "\\u{" + String(scalar.value, radix: 16, uppercase: true).leftPadded(to: 2) + "}"
        }
    }
}

private extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
