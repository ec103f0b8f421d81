internal import CPSL
import FoundationEssentials

/// Where registrable domains come from: "which site is this host part of?"
/// (`alice.github.io` → `alice.github.io`, `www.amazon.co.uk` → `amazon.co.uk`).
public protocol PublicSuffixList: AnyObject {
    /// The registrable domain of an ASCII host name, or nil for a public suffix itself.
    func registrableDomain(of host: String) -> String?
    /// Whether `domain` is a public suffix (`com`, `co.uk`, `github.io`).
    func isPublicSuffix(_ domain: String) -> Bool
}

/// The Public Suffix List through libpsl, private section included. Both lookups are cached: a
/// ranking pass asks about the same few hosts again and again.
public final class LibPSL: PublicSuffixList {
    private let context: OpaquePointer
    private let ownsContext: Bool
    private var registrable: [String: String?] = [:]
    private var suffixes: [String: Bool] = [:]

    /// The newest list on this machine: the system's file (Debian's publicsuffix package) or
    /// the one compiled into libpsl. With `file`, that file only; nil when it cannot be loaded.
    public init?(file: String? = nil) {
        if let file {
            guard let loaded = psl_load_file(file) else { return nil }
            context = loaded
            ownsContext = true
        } else if let latest = psl_latest(nil) {
            context = latest
            ownsContext = true
        } else if let builtin = psl_builtin() {
            context = builtin
            ownsContext = false
        } else {
            return nil
        }
    }

    deinit {
        if ownsContext { psl_free(context) }
    }

    public func registrableDomain(of host: String) -> String? {
        if let cached = registrable[host] { return cached }
        // The offset is into bytes that live for the whole closure; the answer is copied out of
        // `host` itself, never read through a pointer libpsl returned (see the shim).
        let offset = host.withCString { pwtui_psl_registrable_offset(context, $0) }
        let result: String? =
            offset < 0 || offset > host.utf8.count
            ? nil : String(decoding: host.utf8.dropFirst(offset), as: UTF8.self)
        registrable[host] = result
        return result
    }

    public func isPublicSuffix(_ domain: String) -> Bool {
        // Cached like the registrable domains: a request under one site asks it of the same
        // parent domain for every credential stored there.
        if let cached = suffixes[domain] { return cached }
        let result = psl_is_public_suffix2(context, domain, pwtui_psl_type_any()) != 0
        suffixes[domain] = result
        return result
    }
}

/// What matching uses when no list could be loaded: no registrable domains at all, so only the
/// exact, path, host, parent-domain and wildcard tiers apply. Guessing "the last two labels"
/// would make `alice.github.io` and `bob.github.io` one site, which is exactly the mistake the
/// list exists to prevent.
public final class NoPublicSuffixList: PublicSuffixList {
    public init() {}
    public func registrableDomain(of host: String) -> String? { nil }
    public func isPublicSuffix(_ domain: String) -> Bool { !domain.contains(".") }
}
