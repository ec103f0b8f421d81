/// The `passwordrules` sites publish through Apple's password-manager-resources: what a
/// generated password for a site must meet (a site whose form refuses `-`, or wants at most 16
/// characters). A host takes the rules of its own entry, else of its nearest parent domain that
/// has one (`login.example.com` → `example.com`), as Apple's quirks are keyed.
public enum SiteRules {
    /// The rules of every site, by domain, parsed once when first asked for.
    static let byDomain: [String: String] = {
        var table: [String: String] = [:]
        for line in data.split(separator: "\n") {
            guard let tab = line.firstIndex(of: "\t") else { continue }
            table[String(line[..<tab])] = String(line[line.index(after: tab)...])
        }
        return table
    }()

    /// The site's rules text and the domain it is listed under, if it has any.
    public static func rules(for host: String) -> (domain: String, rules: String)? {
        var labels = host.lowercased().split(separator: ".")
        while labels.count >= 2 {
            let domain = labels.joined(separator: ".")
            if let rules = byDomain[domain] { return (domain, rules) }
            labels.removeFirst()
        }
        return nil
    }

    /// Every site with rules, for the tests and `generate --list-sites`.
    public static var all: [(domain: String, rules: String)] {
        byDomain.map { ($0.key, $0.value) }.sorted { $0.domain < $1.domain }
    }
}
