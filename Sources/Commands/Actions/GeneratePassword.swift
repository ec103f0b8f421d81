import Passwords
import Platform
import UnicodeText
import VaultCrypto
import VaultModel

/// A new password as `generate`, `add --generate` and `edit --generate` make it: by the rules
/// given (`--rules`), else by the rules the site publishes (Apple's quirks, for the first host
/// that has some), else Safari's form; or a passphrase of `words` words. A rules text that does
/// not parse is a usage error showing where.
public struct GeneratePassword {
    public var rules: String?
    /// The hosts the password is for, most specific first: their published rules apply.
    public var hosts: [String]
    /// An exact length (within what the rules allow).
    public var length: Int?
    /// A passphrase of this many words instead.
    public var words: Int?

    public init(rules: String? = nil, hosts: [String] = [], length: Int? = nil, words: Int? = nil) {
        self.rules = rules
        self.hosts = hosts
        self.length = length
        self.words = words
    }

    /// `pwtui generate`: one password on stdout, from protected memory.
    public func run(in context: CommandContext) throws {
        let password = try make(in: context)
        try password.withUnsafeBytes { try context.streams.write($0) }
        try context.streams.write("\n")
    }

    /// The password; advice (a short passphrase, the site's rules used) goes to `context`'s stderr.
    public func make(in context: CommandContext) throws -> SecureBytes {
        if let words {
            guard PassphraseGenerator.wordRange.contains(words) else {
                throw CommandFailure(.usage, "--words takes 1 to 64 words, not \(words)")
            }
            if words < PassphraseGenerator.recommendedWords {
                context.streams.say(
                    "pwtui: \(words) words are \(Int(PassphraseGenerator.bits(words: words))) bits; "
                        + "\(PassphraseGenerator.recommendedWords) or more are recommended")
            }
            return try PassphraseGenerator.generate(words: words)
        }
        var parsed = try chosenRules(in: context)
        if let length {
            guard (parsed?.minimumLength ?? 1) ... (parsed?.maximumLength ?? Limits.secretBytes) ~= length, length >= 1
            else {
                throw CommandFailure(.usage, "--length \(length) is outside what the rules allow")
            }
            var withLength = parsed ?? Self.lengthOnly
            withLength.minimumLength = length
            withLength.maximumLength = length
            parsed = withLength
        }
        guard let parsed else { return try PasswordGenerator.generate() }
        do {
            return try RulesPasswordGenerator.generate(parsed)
        } catch let impossible as RulesPasswordGenerator.Impossible {
            throw CommandFailure(.usage, "no password can meet these rules: \(impossible)")
        }
    }

    /// With a length but no rules: letters of both cases, digits and punctuation, one of each
    /// of the first three at least.
    static let lengthOnly: PasswordRules = {
        var rules = PasswordRules()
        rules.required = [PasswordRules.lower, PasswordRules.upper, PasswordRules.digit]
        rules.allowed = PasswordRules.special
        return rules
    }()

    /// The rules echoed (escaped and cut, so that a 100,000-character text does not make a
    /// 300 KB message) with a caret under the column, when that column is in what is shown.
    static func pointing(at column: Int, in rules: String) -> String {
        let shown = PrintableText.echoed(rules)
        // The column counts UTF-8 bytes; the caret goes under the escaped text before it.
        let before = PrintableText.escaped(String(decoding: rules.utf8.prefix(max(column - 1, 0)), as: UTF8.self))
        guard before.count <= PrintableText.echoLimit, rules.utf8.count >= column - 1 else { return "\n  " + shown }
        return "\n  " + shown + "\n  " + String(repeating: " ", count: before.count) + "^"
    }

    private func chosenRules(in context: CommandContext) throws -> PasswordRules? {
        if let rules {
            do {
                return try PasswordRules(parsing: rules)
            } catch {
                throw CommandFailure(
                    .usage,
                    "the password rules: \(PrintableText.echoed(error.problem)) (column \(error.column))"
                        + Self.pointing(at: error.column, in: rules))
            }
        }
        for host in hosts {
            guard let site = SiteRules.rules(for: host) else { continue }
            context.streams.say("Using the password rules \(site.domain) publishes: \(site.rules)")
            do {
                return try PasswordRules(parsing: site.rules)
            } catch {
                return nil  // every published rule set parses (PasswordRulesTests); never fatal for a user
            }
        }
        return nil
    }
}
