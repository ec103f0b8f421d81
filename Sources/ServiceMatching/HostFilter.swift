/// A cheap necessary condition for a stored host to match a request in any ranking tier, on raw
/// bytes, so that `suggest` builds and parses only the few identities of thousands that could
/// match (parsing all 10,000 of a store cost more than the whole answer may).
///
/// Every tier of `ServiceMatch` relates the stored host `h` to the requested host `r` in
/// one of three ways: `h` is `r` or a parent domain of it (same host, exact URL, path prefix,
/// parent domain, wildcard `*.h`); `h` lies under the request's registrable domain (same site);
/// or `h` lies under a domain of the request's equivalence group (equivalent). "Lies under"
/// means equal or a subdomain on a label boundary. A host that passes may still not match —
/// ranking decides — but one that fails cannot.
public struct HostFilter: Sendable {
    // Inlinable, with what they read: `CredentialRanking` (VaultModel) calls `mayMatch` once per
    // stored service, and a call across the module boundary for each showed in pwtui-bench's
    // 100,000-credential ranking (typical request: 7.8 ms against 7.4 ms inlined).
    /// Hosts that a stored host must equal or be a parent domain of.
    public private(set) var requested: [[UInt8]] = []
    /// Domains that a stored host must equal or lie under.
    public private(set) var domains: [[UInt8]] = []

    public init(requests: [ServiceIdentifier], context: RankingContext) {
        self.init(prepared: requests.map { ServiceMatch.PreparedRequest($0, context) })
    }

    /// From requests ranking has prepared already (`get` prepares them once for both).
    package init(prepared requests: [ServiceMatch.PreparedRequest]) {
        for request in requests {
            requested.append(Array(request.identifier.host.utf8))
            if let site = request.site { domains.append(Array(site.utf8)) }
            if let group = request.equivalentGroup {
                for (domain, position) in request.equivalentIndex where position == group {
                    domains.append(Array(domain.utf8))
                }
            }
        }
    }

    @inlinable
    public func mayMatch(host: UnsafeRawBufferPointer) -> Bool {
        // The stored host is the requested one or a parent of it: the request lies under it.
        requested.contains { request in request.withUnsafeBytes { Self.name($0, liesUnder: host) } }
            || domains.contains { domain in domain.withUnsafeBytes { Self.name(host, liesUnder: $0) } }
    }

    @inlinable
    public func mayMatch(host: String) -> Bool {
        var host = host
        return host.withUTF8 { mayMatch(host: UnsafeRawBufferPointer($0)) }
    }

    /// `name` equals `domain` or ends with "." + `domain`.
    @inlinable
    static func name(_ name: UnsafeRawBufferPointer, liesUnder domain: UnsafeRawBufferPointer) -> Bool {
        guard name.count >= domain.count else { return false }
        let start = name.count - domain.count
        guard name[start...].elementsEqual(domain) else { return false }
        return start == 0 || name[start - 1] == 0x2E
    }
}
