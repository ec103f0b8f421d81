import Platform

/// Groups of domains the user declares to be one site (`amazon.com`, `amazon.co.uk`,
/// `amazon.com.be`): a credential for one is offered for the others, marked "equivalent".
///
/// They are user data, stored inside the vault so they travel with it. The whole set carries one
/// modification time: a merge keeps the newer set.
public struct EquivalentDomains: Sendable, Equatable {
    public private(set) var groups: [[String]] {
        didSet { index = Self.index(of: groups) }
    }
    public private(set) var modified: Timestamp
    /// Domain → group index, for lookups during a ranking pass. Kept with the groups: made on
    /// every request, it was a sixth of an agent's `get` (the built-in groups are hundreds).
    private(set) var index: [String: Int]

    public init(groups: [[String]] = [], modified: Timestamp = Timestamp(millisecondsSince1970: 0)) {
        self.groups = groups
        self.modified = modified
        index = Self.index(of: groups)
    }

    /// The group holding `domain`, as a set.
    public func group(containing domain: String) -> Set<String>? {
        groups.first { $0.contains(domain) }.map(Set.init)
    }

    /// The index of the group holding `host` or the closest of its parent domains
    /// (`www.amazon.com.be` is in the group of `amazon.com.be`).
    func groupIndex(of host: String, in index: [String: Int]) -> Int? {
        guard !index.isEmpty else { return nil }
        var rest = Substring(host)
        while true {
            if let group = index[String(rest)] { return group }
            guard let dot = rest.firstIndex(of: ".") else { return nil }
            rest = rest[rest.index(after: dot)...]
        }
    }

    private static func index(of groups: [[String]]) -> [String: Int] {
        var index: [String: Int] = [:]
        for (position, group) in groups.enumerated() { for domain in group { index[domain] = position } }
        return index
    }

    public static func == (a: EquivalentDomains, b: EquivalentDomains) -> Bool {
        a.groups == b.groups && a.modified == b.modified
    }

    /// Declares `domains` equivalent: joined with every group that already holds one of them.
    public mutating func add(_ domains: [String], at time: Timestamp) {
        var merged = domains
        groups.removeAll { group in
            guard group.contains(where: domains.contains) else { return false }
            merged += group
            return true
        }
        var seen = Set<String>()
        groups.append(merged.filter { seen.insert($0).inserted }.sorted())
        groups.sort { $0[0] < $1[0] }
        modified = time
    }

    /// Takes `domains` out of their groups; a group left with one domain is dropped. Returns
    /// the domains that were in no group.
    @discardableResult
    public mutating func remove(_ domains: [String], at time: Timestamp) -> [String] {
        let known = Set(groups.joined())
        groups = groups.map { $0.filter { !domains.contains($0) } }.filter { $0.count >= 2 }
        modified = time
        return domains.filter { !known.contains($0) }
    }
}
