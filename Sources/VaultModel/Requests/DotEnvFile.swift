/// An `.env` file as `pwtui run --env-file` reads it: `NAME=value` lines, as docker compose,
/// direnv's dotenv and `op run` read them.
///
/// - blank lines and lines starting with `#` are skipped; `export NAME=value` is the same line;
/// - an unquoted value ends before ` #` (a comment) and has its outer spaces trimmed;
/// - a single-quoted value is taken as it is; a double-quoted one knows `\n`, `\t`, `\"`, `\\`;
/// - a name is letters, digits and `_`, not starting with a digit.
///
/// Anything else is refused with its line number (64): a line that silently set nothing would
/// start a program without the secret it expects. Values are not secrets here: a secret is
/// written as a reference (`pwtui://…`), which `run` replaces.
public struct DotEnvFile {
    public let variables: [(name: String, value: String)]

    public init(text: String, path: String) throws {
        var variables: [(name: String, value: String)] = []
        // "\r\n" is one Character in Swift: `isNewline` splits at it as at "\n".
        for (index, rawLine) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            var line = rawLine.drop { $0 == " " || $0 == "\t" }
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("export ") { line = line.dropFirst(7).drop { $0 == " " } }
            let fail = { (why: String) in VaultError.invalidRequest("\(path), line \(index + 1): \(why)") }
            guard let equals = line.firstIndex(of: "=") else { throw fail("no '=' (NAME=value expected)") }
            let name = String(line[..<equals]).trimmingTrailing()
            guard Self.isName(name) else {
                throw fail("'\(name)' is not a variable name (letters, digits and _, not starting with a digit)")
            }
            variables.append((name, try Self.value(line[line.index(after: equals)...], fail)))
        }
        self.variables = variables
    }

    public static func isName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, !("0" ... "9").contains(first) else { return false }
        return name.unicodeScalars.allSatisfy {
            $0 == "_" || ("a" ... "z").contains($0) || ("A" ... "Z").contains($0) || ("0" ... "9").contains($0)
        }
    }

    private static func value(_ text: Substring, _ fail: (String) -> VaultError) throws -> String {
        let text = text.drop { $0 == " " || $0 == "\t" }
        guard let quote = text.first, quote == "'" || quote == "\"" else {
            let beforeComment = text.range(of: " #").map { text[..<$0.lowerBound] } ?? text
            return String(beforeComment).trimmingTrailing()
        }
        var value = ""
        var rest = text.dropFirst()
        while let character = rest.popFirst() {
            if character == quote {
                let after = rest.drop { $0 == " " || $0 == "\t" }
                guard after.isEmpty || after.hasPrefix("#") else { throw fail("text after the closing \(quote)") }
                return value
            }
            if quote == "\"", character == "\\", let escaped = rest.popFirst() {
                switch escaped {
                case "n": value.append("\n")
                case "t": value.append("\t")
                case "r": value.append("\r")
                default: value.append(escaped)
                }
            } else {
                value.append(character)
            }
        }
        throw fail("the value's \(quote) is not closed on its line")
    }
}

extension String {
    fileprivate func trimmingTrailing() -> String {
        var text = Substring(self)
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        return String(text)
    }
}

extension Substring {
    fileprivate func range(of needle: String) -> Range<Index>? {
        var index = startIndex
        while index < endIndex {
            if self[index...].hasPrefix(needle) { return index ..< self.index(index, offsetBy: needle.count) }
            index = self.index(after: index)
        }
        return nil
    }
}
