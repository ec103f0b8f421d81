import FoundationEssentials
import Platform
import VaultCrypto

/// Reconciling vault files (see `VaultReconcile` for the rules): git's three files, or a conflict
/// copy that a file-sync service left beside the vault.
///
/// The result is sealed under OURS's keys and header, one generation above every input, so a
/// copy that went through a merge is never taken for an older one (`GenerationMemory`). Every
/// input is read and checked before anything is written: two different vaults, a copy under
/// another master password, or one written by a newer pwtui are refused, and the files are left
/// as they were.
public enum VaultFileReconcile {
    /// git's merge driver (`%O %A %B`): the result replaces `ours` atomically. `base` may be
    /// empty or missing (no common ancestor).
    public static func reconcile(base: String, ours: String, theirs: String, keyring: VaultKeyring) throws
        -> ReconcileSummary
    {
        let baseImage = (try StoredFile.readIfPresent(base)).flatMap { $0.isEmpty ? nil : $0 }
        let ourImage = try VaultStorage.load(ours)
        let theirImage = try VaultStorage.load(theirs)
        let (image, summary) = try reconciledImage(
            base: baseImage.map { ($0, base) }, ours: (ourImage, ours),
            theirs: (theirImage, theirs), keyring: keyring)
        try AtomicFile.write(Data(image), to: ours)
        return summary
    }

    /// Reconciles the copy at `other` into the vault at `vault`, with the vault's save protocol
    /// (its lock held while reading and replacing it, the previous file kept as `.bak`).
    public static func reconcile(copy other: String, into vault: String, keyring: VaultKeyring) throws
        -> ReconcileSummary
    {
        let theirImage = try VaultStorage.load(other)
        var summary = ReconcileSummary()
        try VaultStorage.commit(
            path: vault, backup: .keepPrevious,
            produce: { current in
                guard let current else { throw VaultError.notFound(path: vault) }
                let (image, merged) = try reconciledImage(
                    base: nil, ours: (current, vault), theirs: (theirImage, other), keyring: keyring)
                summary = merged
                return try cryptoCall { () throws(VaultCryptoError) in try SecureBytes(copying: image) }
            },
            verify: { image in
                // The save protocol has compared the file with the image byte for byte; what is
                // left to check is that it opens. The image is ciphertext: an array copy is harmless.
                _ = try keyring.open(image.withUnsafeBytes { Array($0) }, path: vault)
            })
        return summary
    }

    /// The merged image and what came from `theirs`.
    static func reconciledImage(
        base: ([UInt8], String)?, ours: ([UInt8], String), theirs: ([UInt8], String),
        keyring: VaultKeyring
    ) throws -> ([UInt8], ReconcileSummary) {
        let ourHeader = try header(of: ours)
        let theirHeader = try header(of: theirs)
        guard ourHeader.vaultID == theirHeader.vaultID else { throw ReconcileRefusal.differentVaults(ours.1, theirs.1) }
        var baseHeader: VaultHeader?
        if let base {
            let header = try header(of: base)
            // An ancestor of another vault is no ancestor: merge as if there were none.
            if header.vaultID == ourHeader.vaultID { baseHeader = header }
        }
        let ourContents = try keyring.open(ours.0, path: ours.1).contents
        let theirContents = try keyring.open(theirs.0, path: theirs.1).contents
        var baseContents: VaultContents?
        if let base, baseHeader != nil {
            // An ancestor under an older master password still helps, when the same one opens it;
            // without it the merge falls back to the stamps.
            baseContents = try? keyring.open(base.0, path: base.1).contents
        }
        let (merged, summary) = try VaultReconcile.reconcile(
            base: baseContents, ours: ourContents, theirs: theirContents)
        var written = newerKey(ours: ourHeader, theirs: theirHeader, base: baseHeader)
        written.generation = max(ourHeader.generation, theirHeader.generation, baseHeader?.generation ?? 0) + 1
        return (try keyring.seal(merged, header: written), summary)
    }

    /// The header whose key the merged copy is sealed under: ours, unless the master password
    /// was changed on their side — their key differs from the ancestor's while ours is the
    /// ancestor's (without an ancestor, the copy saved more often) — so a `passwd` on one machine
    /// reaches the others through the merge instead of being undone by it.
    public static func newerKey(ours: VaultHeader, theirs: VaultHeader, base: VaultHeader?) -> VaultHeader {
        guard !VaultKeyring.sameKey(ours, theirs) else { return ours }
        if let base {
            if VaultKeyring.sameKey(base, ours) { return theirs }
            if VaultKeyring.sameKey(base, theirs) { return ours }
        }
        return theirs.generation > ours.generation ? theirs : ours
    }

    private static func header(of file: ([UInt8], String)) throws -> VaultHeader {
        let header = try file.0.withUnsafeBytes { try VaultHeader.parse($0, path: file.1) }
        guard header.minorVersion <= VaultHeader.currentMinorVersion else {
            throw ReconcileRefusal.newerFormat(path: file.1)
        }
        return header
    }
}
