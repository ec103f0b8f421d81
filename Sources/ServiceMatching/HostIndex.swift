/// Which credentials have a service that `HostFilter` lets through, found by looking up instead
/// of asking every service of every credential.
///
/// The filter accepts a stored host `h` when `h` is a requested host `r` or a parent domain of it,
/// or when `h` lies under one of the filter's domains `d` (the request's registrable domain, the
/// domains of its equivalence group). Both are one relation, "x lies under y": y equals x, or x
/// ends with "." followed by y. So the names a host lies under are itself and what follows each of
/// its dots — its label suffixes — and the two questions become lookups:
///
/// - `h` is `r` or a parent of it: `h` is one of the label suffixes of `r`. For each suffix of
///   each requested host, the credentials with a host equal to it (`byHost`).
/// - `h` lies under `d`: `d` is one of the label suffixes of `h`. The credentials with a host
///   that has `d` among its suffixes (`bySuffix`, every suffix of every stored host a key).
///
/// The union of those lists is exactly the set the filter would pass, by construction (bytes are
/// compared, as the filter does; a property test holds the two together), in the credentials'
/// order. A `get` for one site among 10,000 credentials then looks at a handful instead of
/// copying and testing 10,000 (a third of the agent's work for it, by perf). Built once for a
/// vault's credentials and rebuilt when they change (`Vault.hostIndex`), but for a credential
/// added at the end, which joins it (`append`): building it for 100,000 credentials takes most
/// of a second, which the first `get` after every `add` paid.
public struct HostIndex: Sendable {
    private var byHost: [[UInt8]: [Int]] = [:]
    private var bySuffix: [[UInt8]: [Int]] = [:]
    /// One past the last position indexed: what `append` must be given.
    public private(set) var count = 0

    /// `hosts[position]`: the hosts of the services of the credential at `position`.
    public init(hosts: [[String]]) {
        for list in hosts { append(hosts: list) }
    }

    /// The hosts of the credential at position `count`, after every one indexed so far: the index
    /// of the credentials with one more at the end, the same as one built for all of them.
    public mutating func append(hosts: [String]) {
        let position = count
        count += 1
        for host in hosts {
            let name = Array(host.utf8)
            Self.add(position, to: &byHost[name, default: []])
            for suffix in Self.labelSuffixes(of: name) {
                Self.add(position, to: &bySuffix[Array(suffix), default: []])
            }
        }
    }

    /// The positions, ascending and each once, of the credentials with a host that `filter`
    /// accepts.
    public func positions(passing filter: HostFilter) -> [Int] {
        var found: [Int] = []
        for requested in filter.requested {
            for suffix in Self.labelSuffixes(of: requested) {
                found += byHost[Array(suffix)] ?? []
            }
        }
        for domain in filter.domains {
            found += bySuffix[domain] ?? []
        }
        found.sort()
        var unique: [Int] = []
        unique.reserveCapacity(found.count)
        for position in found where unique.last != position { unique.append(position) }
        return unique
    }

    /// Positions arrive in increasing order, so a credential already listed is the last one.
    private static func add(_ position: Int, to list: inout [Int]) {
        if list.last != position { list.append(position) }
    }

    /// The names `name` lies under: itself, and what follows each of its dots.
    static func labelSuffixes(of name: [UInt8]) -> [ArraySlice<UInt8>] {
        var suffixes = [name[...]]
        for index in name.indices where name[index] == UInt8(ascii: ".") {
            suffixes.append(name[(index + 1)...])
        }
        return suffixes
    }
}
