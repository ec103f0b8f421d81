import VaultModel
import VaultCrypto

/// A file with `{{ pwtui://… }}` where secrets go (`pwtui inject`), as 1Password's `op inject`
/// reads its templates: the reference between double braces, spaces around it optional. Other
/// double braces (`{{ .Values.name }}` in a Helm chart, a Jinja variable) are not references
/// and stay as they are. A `{{ pwtui://` left open is refused with its line number.
public struct SecretTemplate {
    /// The text between the references, and the references, in order: `parts[i]`, then
    /// `references[i]`, ..., and the last part.
    public let parts: [Substring]
    public let references: [SecretURI]

    public init(text: String, path: String) throws {
        var parts: [Substring] = []
        var references: [SecretURI] = []
        var rest = Substring(text)
        var copied = rest.startIndex
        // The line of the last reference seen, and where it was counted to: each line break is
        // counted once, so the whole is linear in the template (counting from the start for
        // each reference took 46 s for 8 MB with 100 of them).
        var line = 1
        var counted = text.startIndex
        while let open = rest.firstRange(of: "{{") {
            let inside = rest[open.upperBound...]
            let reference = inside.drop { $0 == " " || $0 == "\t" }
            guard reference.hasPrefix(SecretURI.scheme) else {
                rest = inside
                continue
            }
            line = text[counted ..< open.lowerBound].reduce(line) { $1.isNewline ? $0 + 1 : $0 }
            counted = open.lowerBound
            guard let close = inside.firstRange(of: "}}"), !inside[..<close.lowerBound].contains(where: \.isNewline)
            else {
                throw CommandFailure(.usage, "\(path), line \(line): '{{ pwtui://' without its '}}' on the same line")
            }
            var body = inside[..<close.lowerBound].drop { $0 == " " || $0 == "\t" }
            while let last = body.last, last == " " || last == "\t" { body = body.dropLast() }
            do {
                guard let uri = try SecretURI(String(body)) else { break }
                references.append(uri)
            } catch VaultError.invalidRequest(let message) {
                throw CommandFailure(.usage, "\(path), line \(line): \(message)")
            }
            parts.append(text[copied ..< open.lowerBound])
            copied = close.upperBound
            rest = inside[close.upperBound...]
        }
        parts.append(text[copied...])
        self.parts = parts
        self.references = references
    }

    /// The template with every reference's value in its place, in protected memory.
    public func filled(with secrets: borrowing ScriptSecrets) throws -> SecureBytes {
        var output = try SecureBytes(capacity: parts.reduce(0) { $0 + $1.utf8.count } + 64 * references.count)
        for (index, part) in parts.enumerated() {
            try output.append(utf8: String(part))
            if index < references.count {
                try secrets.withValue(of: references[index]) { try output.append(contentsOf: $0) }
            }
        }
        return output
    }
}
