import FoundationEssentials
import Platform
import VaultAgent
import VaultCrypto
import VaultModel

/// `pwtui merge`: reconciles copies of the vault (the rules are `VaultReconcile`'s).
///
/// As git's merge driver (`pwtui merge %O %A %B`) it runs with git's stdin and stdout, which are
/// not the user's: the key comes from an unlocked agent holding this vault (which does the merge
/// itself, so the key never leaves it), else from the master password asked on /dev/tty, else it
/// fails (75) before writing anything, and git leaves the conflict for later with nothing lost.
/// With one file it merges a conflict copy that a file-sync service left into the vault.
public struct MergeVaults {
    public enum Files: Equatable, Sendable {
        /// git's %O %A %B: the result replaces `ours`.
        case driver(base: String, ours: String, theirs: String)
        /// Another copy, merged into the context's vault.
        case copy(String)
    }

    public var files: Files

    public init(files: Files) {
        self.files = files
    }

    public func run(in context: CommandContext) throws {
        let summary: ReconcileSummary
        let theirs: String
        switch files {
        case .driver(let base, let ours, let other):
            theirs = other
            // The agent runs in another directory: paths go to it absolute.
            summary = try Self.driver(
                base: FileSystem.absolute(base), ours: FileSystem.absolute(ours),
                theirs: FileSystem.absolute(other), context)
        case .copy(let other):
            theirs = other
            let vault = context.vaultPath
            try VaultStorage.requireVaultFile(vault)
            try VaultStorage.requireVaultFile(other)
            let (copyHeader, copyVersion) = try VaultStorage.loadVersion(other)
            // Without an ancestor the stamps decide, so an older copy's values lose to later ones.
            if let seen = GenerationMemory.load(from: context.paths.generationsFile).seen(
                above: copyHeader, at: copyVersion)
            {
                context.streams.say(
                    "pwtui: warning: \(other) is \(copyVersion) of this vault, below \(seen) "
                        + "seen on this machine: an older copy (a stale backup, an old file a sync service kept), or one changed apart "
                        + "with fewer saves. Merging it never undoes what changed since: where it holds older values, the later ones stay."
                )
            }
            if let answer = try VaultAccess.ask(.mergeCopy(vault: vault, copy: FileSystem.absolute(other)), in: context)
            {
                summary = try Self.summary(of: answer.body)
            } else {
                let keyring = VaultKeyring(password: try context.masterPassword())
                summary = try VaultFileReconcile.reconcile(copy: other, into: vault, keyring: keyring)
                context.rememberSaved(try VaultStorage.loadHeader(vault))
            }
            Self.rememberMerged(copyHeader, at: copyVersion, context)
        }
        if files == .copy(theirs) {
            context.streams.say("pwtui: merged \(theirs): \(summary); \(theirs) can be deleted now")
        } else {
            context.streams.say("pwtui: merged the vault with the other side's: \(summary)")
        }
    }

    /// git's merge driver. The copies git hands over are temporary files with names of git's
    /// own, so what is said names the copies by whose they are, never by those paths.
    ///
    /// When the two copies are under different keys, `passwd` ran on one machine: the merged
    /// vault takes the newer master password (`VaultFileReconcile.newerKey`). The person is told so,
    /// and asked once for the other copy's password: an unlocked agent holds this copy's key;
    /// without one, this copy's password is asked for too.
    static func driver(base: String, ours: String, theirs: String, _ context: CommandContext) throws -> ReconcileSummary
    {
        let (ourHeader, ourVersion) = try VaultStorage.loadVersion(ours)
        let (theirHeader, theirVersion) = try VaultStorage.loadVersion(theirs)
        warnOfReplays(
            base: try? VaultStorage.loadVersion(base), ours: (ourHeader, ourVersion),
            theirs: (theirHeader, theirVersion),
            context)
        guard !VaultKeyring.sameKey(ourHeader, theirHeader), ourHeader.vaultID == theirHeader.vaultID else {
            if let answer = try VaultAccess.ask(.mergeFiles(base: base, ours: ours, theirs: theirs), in: context) {
                return try summary(of: answer.body)
            }
            let keyring = VaultKeyring(
                password: try context.masterPassword(prompt: "Master password (to merge the vault): "))
            return try VaultFileReconcile.reconcile(base: base, ours: ours, theirs: theirs, keyring: keyring)
        }
        let newer = VaultFileReconcile.newerKey(
            ours: ourHeader, theirs: theirHeader, base: try? VaultStorage.loadHeader(base))
        let changedHere = VaultKeyring.sameKey(newer, ourHeader)
        context.streams.say(
            changedHere
                ? "pwtui: this vault's master password was changed here since the other machine's copy was saved; the merged vault keeps the new one."
                : "pwtui: the vault's master password was changed on another machine; the merged vault takes that new one (this machine then unlocks with it)."
        )
        let other = try context.masterPassword(
            prompt: changedHere
                ? "The previous master password (the other machine's copy is still under it): "
                : "The new master password (set on the other machine): ")
        do {
            if let answer = try VaultAccess.ask(
                .mergeFiles(base: base, ours: ours, theirs: theirs), payload: other, in: context)
            {
                return try summary(of: answer.body)
            }
            let mine = try context.masterPassword(
                prompt: changedHere
                    ? "Master password (the new one, this copy's): "
                    : "Master password (the previous one, this copy's): ")
            return try VaultFileReconcile.reconcile(
                base: base, ours: ours, theirs: theirs, keyring: VaultKeyring(password: mine).adding(password: other))
        } catch let refusal as ReconcileRefusal {
            guard case .differentPasswords = refusal else { throw refusal }
            throw CommandFailure(
                .wrongPassword,
                "the password given does not open the other machine's copy of the vault; nothing was merged")
        } catch VaultError.wrongPassword {
            throw CommandFailure(
                .wrongPassword, "wrong master password for this machine's copy of the vault; nothing was merged")
        }
    }

    /// A side older than the copy both started from was replayed (a backup restored and
    /// committed): the merge takes none of its older values (`VaultReconcile.replays`), and the
    /// person hears of it.
    static func warnOfReplays(
        base: (header: VaultHeader, version: VaultVersion)?, ours: (header: VaultHeader, version: VaultVersion),
        theirs: (header: VaultHeader, version: VaultVersion), _ context: CommandContext
    ) {
        for (copy, name) in [
            (ours, "this machine's copy of the vault"),
            (theirs, "the other machine's copy of the vault (the commit merged in)"),
        ] {
            guard let base, base.header.vaultID == copy.header.vaultID, copy.version < base.version else { continue }
            context.streams.say(
                "pwtui: warning: \(name) is \(copy.version), older than the copy both sides started from "
                    + "(\(base.version)): a restored backup or a replayed file, committed as a change. Its older values "
                    + "are not taken; what changed since stays. If it was meant to undo changes, make them again after the merge."
            )
        }
        // Not held against what was seen here: a commit that changed apart from this machine's
        // copy has its own count of saves, often lower, and is no older for it. The ancestor is
        // what tells an older copy here.
    }

    /// `doctor` stops asking for a copy once it is merged; never fatal: it is only a reminder.
    static func rememberMerged(_ header: VaultHeader, at version: VaultVersion, _ context: CommandContext) {
        var merged = MergedCopies.load(from: context.paths.mergedCopiesFile)
        merged.insert(header, at: version)
        try? merged.save(to: context.paths.mergedCopiesFile)
    }

    private static func summary(of reply: AgentReply) throws -> ReconcileSummary {
        guard case .merged(let summary) = reply else { throw AgentError.unexpected(reply) }
        return summary
    }
}
