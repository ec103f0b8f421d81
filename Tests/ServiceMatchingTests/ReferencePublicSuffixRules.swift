import Foundation

/// The Public Suffix List's own algorithm (publicsuffix.org, "Formal algorithm"), written from
/// the specification and sharing nothing with libpsl: the independent side of the corpus tests.
///
/// It works on Unicode labels as the file writes them; the test converts its answers to the
/// ASCII (punycode) form the matcher uses.
struct ReferencePublicSuffixRules {
    enum Kind { case normal, wildcard, exception }

    struct Rule {
        /// Labels right to left, `*` kept as a label.
        let labels: [Substring]
        let kind: Kind
        let isPrivate: Bool
        let text: String
    }

    static let systemFile = "/usr/share/publicsuffix/public_suffix_list.dat"

    let rules: [Rule]
    /// Rules by their text without `!`: a name's candidate rules are looked up per suffix length.
    private let byText: [String: Rule]

    init(file: String = systemFile) throws {
        let text = try String(contentsOfFile: file, encoding: .utf8)
        var rules: [Rule] = []
        var isPrivate = false
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: true) {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.contains("===BEGIN PRIVATE DOMAINS===") { isPrivate = true }
            if line.contains("===END PRIVATE DOMAINS===") { isPrivate = false }
            guard !line.isEmpty, !line.hasPrefix("//") else { continue }
            // A rule is the line up to its first whitespace.
            let token = String(line.split(whereSeparator: { $0 == " " || $0 == "\t" })[0]).lowercased()
            if token.hasPrefix("!") {
                rules.append(
                    Rule(
                        labels: token.dropFirst().split(separator: ".").reversed(), kind: .exception,
                        isPrivate: isPrivate, text: token))
            } else {
                let labels = Array(token.split(separator: ".").reversed())
                rules.append(
                    Rule(
                        labels: labels, kind: labels.contains("*") ? .wildcard : .normal,
                        isPrivate: isPrivate, text: token))
            }
        }
        self.rules = rules
        var byText: [String: Rule] = [:]
        for rule in rules { byText[rule.kind == .exception ? String(rule.text.dropFirst()) : rule.text] = rule }
        self.byText = byText
    }

    /// The public suffix of a lowercase Unicode domain name: of the rules that match (a rule
    /// matches when its labels equal the name's rightmost ones, `*` matching any label), an
    /// exception prevails, else the one with most labels; an exception's suffix drops its
    /// leftmost label; with no rule, the implicit `*` makes the last label the suffix.
    func publicSuffix(of domain: String) -> String {
        let labels = Array(domain.split(separator: ".", omittingEmptySubsequences: false).reversed())
        var prevailing: Rule?
        for count in 1 ... labels.count {
            let suffix = labels.prefix(count).reversed()
            let exact = suffix.joined(separator: ".")
            let wildcard = (["*"] + suffix.dropFirst()).joined(separator: ".")
            for candidate in [exact, wildcard] {
                guard let rule = byText[candidate], rule.labels.count == count else { continue }
                if rule.kind == .exception {
                    if candidate == exact { return labels.prefix(count - 1).reversed().joined(separator: ".") }
                    continue
                }
                if prevailing == nil || rule.labels.count > prevailing!.labels.count { prevailing = rule }
            }
        }
        return labels.prefix(prevailing?.labels.count ?? 1).reversed().joined(separator: ".")
    }

    /// The registrable domain: the public suffix plus one label, nil when there is none.
    func registrableDomain(of domain: String) -> String? {
        let suffix = publicSuffix(of: domain)
        let labels = Array(domain.split(separator: ".", omittingEmptySubsequences: false).reversed())
        let suffixCount = suffix.split(separator: ".").count
        guard labels.count > suffixCount else { return nil }
        return labels.prefix(suffixCount + 1).reversed().joined(separator: ".")
    }
}
