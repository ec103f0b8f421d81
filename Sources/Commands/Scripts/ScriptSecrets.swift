import UnicodeText
import VaultCrypto
import VaultModel

/// The values of the references a script asked for (`pwtui run`, `pwtui inject`), each read
/// once, together in one protected buffer: what goes into the child's environment or the
/// template, and what the child's output is masked against.
public struct ScriptSecrets: ~Copyable {
    private let bytes: SecureBytes
    private let ranges: [SecretURI: Range<Int>]

    /// Resolves `references` through an unlocked agent, or the vault unlocked here (once for
    /// all of them). A reference that names no credential is no match (1); one that names
    /// several is refused with their ids (64), before any secret is read.
    public init(_ references: [SecretURI], in context: CommandContext) throws {
        var bytes = try SecureBytes(capacity: 256)
        var ranges: [SecretURI: Range<Int>] = [:]
        let unique = references.reduce(into: [SecretURI]()) { list, reference in
            if !list.contains(reference) { list.append(reference) }
        }
        if !unique.isEmpty {
            let access = try VaultAccess.open(context)
            let identities = try access.identities().identities
            let named = try unique.map { try Self.credential($0, among: identities) }
            let found = try access.append(zip(unique, named).map { ($0.field, $1.id) }, to: &bytes)
            for (reference, range) in zip(unique, found) { ranges[reference] = range }
        }
        self.bytes = bytes
        self.ranges = ranges
    }

    /// The one credential `reference` names: an id or an id's prefix first, then a service (by
    /// host) or a title, as `rm` and `edit` read their argument, but never a guess among several.
    static func credential(_ reference: SecretURI, among identities: [IdentityStore.Identity]) throws
        -> IdentityStore.Identity
    {
        let wanted = reference.name.lowercased()
        var named =
            wanted.count >= CredentialReference.shortestIDPrefix
            ? identities.filter { $0.id.uuidString.lowercased().hasPrefix(wanted) } : []
        if named.isEmpty { named = CredentialReference(reference.name).candidates(in: identities) }
        switch named.count {
        case 1:
            return named[0]
        case 0:
            // `pwtui://work/db` for the title "work/db": the slash split it into a name and a field.
            if let slashed = reference.slashedName,
                !CredentialReference(slashed).candidates(in: identities).isEmpty
            {
                let escaped = slashed.replacingEvery("%", with: "%25")
                    .replacingEvery("/", with: "%2F")
                throw VaultError.noMatch(
                    "\(reference): no credential has '\(reference.name)' as its id, a service or its title; "
                        + "for the title '\(slashed)', write its slash as %2F: pwtui://\(escaped)")
            }
            throw VaultError.noMatch(
                "\(reference): no credential has '\(reference.name)' as its id, a service or its title")
        default:
            throw CommandFailure(
                .usage,
                "\(reference) names \(named.count) credentials; name one by its id (pwtui://ID…):\n"
                    + CredentialReference.lines(named).joined(separator: "\n"))
        }
    }

    /// The value of `reference` (one of those resolved), lent to `body`.
    public func withValue<Result>(of reference: SecretURI, _ body: (UnsafeRawBufferPointer) throws -> Result) rethrows
        -> Result
    {
        try bytes.withUnsafeBytes { all in
            let range = ranges[reference] ?? 0 ..< 0
            return try body(UnsafeRawBufferPointer(rebasing: all[range]))
        }
    }

    /// Every value, for masking (empty ones have nothing to mask).
    public func withValues<Result>(_ body: ([UnsafeRawBufferPointer]) throws -> Result) rethrows -> Result {
        try bytes.withUnsafeBytes { all in
            try body(ranges.values.filter { !$0.isEmpty }.map { UnsafeRawBufferPointer(rebasing: all[$0]) })
        }
    }
}
