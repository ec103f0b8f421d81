import FoundationEssentials
import Platform
import VaultModel

/// `pwtui sync`: the vault's git repository brought level with its remote — commit the vault,
/// pull (git runs `pwtui merge` on the vault when both sides changed it), push — with one line
/// saying what moved.
///
/// Nothing is lost on the way: the local change is committed before anything goes over the
/// network, so a network error leaves it committed here (74, "sent with the next sync"); a merge
/// that cannot be done (no key, a different master password) is aborted, leaving the vault as it
/// was, with the driver's reason above; a push refused because another machine pushed meanwhile
/// is pulled and merged again, a few times, before giving up.
public struct SyncVault {
    static let pushAttempts = 3

    public init() {}

    public func run(in context: CommandContext) throws {
        let vault = context.vaultPath
        try VaultStorage.requireVaultFile(vault)
        let repository = try GitRepository.containing(AtomicFile.split(vault).directory)
        guard try repository.config("merge.pwtui.driver") != nil else {
            throw CommandFailure(
                .usage,
                "git does not know how to merge the vault yet in \(repository.root); run 'pwtui sync setup' first")
        }
        guard !(try repository.git(["remote"], quiet: true).output.isEmpty) else {
            throw CommandFailure(
                .usage,
                "the repository \(repository.root) has no remote; add one (git remote add origin URL) and push once (git push -u origin HEAD)"
            )
        }
        guard try repository.git(["rev-parse", "--abbrev-ref", "@{upstream}"], quiet: true).status == 0 else {
            throw CommandFailure(
                .usage,
                "the branch in \(repository.root) follows no remote branch; push it once with 'git push -u origin HEAD'"
            )
        }
        let identity =
            try repository.config("user.email") == nil
            ? ["-c", "user.name=pwtui", "-c", "user.email=pwtui@\(HostName.current() ?? "localhost")"] : []

        var paths = [repository.relative(vault)]
        for file in [".gitattributes", ".gitignore"] {
            guard let info = try? FileSystem.linkStatus(repository.root + "/" + file) else { continue }
            // Not a link (git ignores one, and it could name any file of the user's; see SetUpSync).
            guard info.kind == .regular else {
                throw SetUpSync.refusal(
                    info.kind == .symbolicLink
                        ? .symbolicLink(path: repository.root + "/" + file)
                        : .notRegular(path: repository.root + "/" + file, kind: RegularFile.kindName(info.kind)),
                    file: repository.root + "/" + file)
            }
            paths.append(file)
        }
        // A file put back here (a backup) goes out as it is, with its older values: say so.
        if let (header, version) = try? VaultStorage.loadVersion(vault) {
            context.checkRollback(
                header, at: version, of: vault,
                consequence: "this sync commits it as it is; on the other machines the merge keeps what changed since")
        }
        compactJournal(of: vault, in: repository, in: context)
        // Every git step that reads or writes the vault file runs under the vault's save lock: a
        // save landing between git's reading of the file (add, the merge's check that the work
        // tree is clean) and its writing (the merge's or fast-forward's checkout) would be
        // overwritten, though its command said it was saved. Under the lock a save waits, then
        // replays its change onto the merged file (the save protocol's merge); a save that came
        // before is committed first and merged by git. The network is reached outside the lock,
        // and the change is committed before anything goes over it.
        let committed = try VaultStorage.whileLocked(vault) { try commit(repository, paths: paths, identity: identity) }
        let before = try repository.git(["rev-parse", "HEAD"], quiet: true).output
        // Commits made here by later rounds (saves that came while a push was under way): sent,
        // not received.
        var laterCommits = 0
        var attempt = 0
        // What went out: this sync's commit, or commits an earlier sync could not push, or the
        // person's own (a "nothing to send" after a push would be wrong).
        var sent = 0
        while true {
            attempt += 1
            try fetch(repository)
            let madeCommit = try VaultStorage.whileLocked(vault) {
                let made = try commit(repository, paths: paths, identity: identity)
                try merge(repository, identity: identity)
                return made
            }
            if madeCommit { laterCommits += 1 }
            let ahead =
                Int(
                    try repository.git(["rev-list", "--count", "--no-merges", "@{upstream}..HEAD"], quiet: true).output)
                ?? 1
            let unpushed =
                Int(try repository.git(["rev-list", "--count", "@{upstream}..HEAD"], quiet: true).output) ?? 1
            if unpushed == 0 { break }
            if try repository.git(["push", "-q"]).status == 0 {
                sent = ahead
                break
            }
            if attempt >= Self.pushAttempts {
                throw CommandFailure(
                    .ioError,
                    "the push failed (see above); the vault is merged and committed here, and goes out with the next 'pwtui sync'"
                )
            }
        }
        // git writes what it checks out with the umask's mode; the vault stays the user's alone.
        try? FileSystem.setPermissions(vault, to: 0o600)
        // A fast-forward to an older file (a backup restored and pushed elsewhere) is a rollback.
        if let (header, version) = try? VaultStorage.loadVersion(vault) {
            context.checkRollback(header, at: version, of: "\(vault) (as synced from the remote)")
        }
        let after = try repository.git(["rev-parse", "HEAD"], quiet: true).output
        let received = max(
            0,
            (Int(try repository.git(["rev-list", "--count", "--no-merges", "\(before)..\(after)"], quiet: true).output)
                ?? 0) - laterCommits)
        let summary =
            sent == 0
            ? "nothing to send"
            : committed && sent == 1
                ? "sent this machine's change"
                : "sent \(sent) change\(sent == 1 ? "" : "s")"
        context.streams.say(
            "pwtui: synced \(repository.relative(vault)): \(summary), "
                + (received == 0
                    ? "nothing new from elsewhere"
                    : "\(received) change\(received == 1 ? "" : "s") from elsewhere merged in"))
    }

    /// The vault's journal folded into a new snapshot before the file is committed (issue 37), so
    /// that git stores snapshots: what the merge driver and the other machines read whole, and
    /// what a history of commits then holds once, not again in each commit's trail of records.
    /// Only when this machine has a change to commit anyway: a file as it came from elsewhere is
    /// left alone, or every machine that received records would commit a snapshot of its own,
    /// and a fast-forward would become a merge. Only when the key is at hand without asking for
    /// it: an unlocked agent that holds the vault (which compacts it), or `--master-password-fd`.
    /// Otherwise the file is committed as it is, which is correct (its records are bound to its
    /// snapshot), only larger. Before the lock that the commit takes: the compaction is a save,
    /// which takes it itself. A compaction that fails (an agent of an older version that does not
    /// know the request, a full disk) leaves the file as it was, by the save protocol: said, and
    /// the sync goes on with it.
    private func compactJournal(of vault: String, in repository: GitRepository, in context: CommandContext) {
        guard let (_, version) = try? VaultStorage.loadVersion(vault), version.changes > 0,
            (try? repository.git(["diff", "--quiet", "HEAD", "--", repository.relative(vault)], quiet: true).status)
                != 0
        else { return }
        do {
            if try VaultAccess.ask(.compact(vault: vault), in: context) != nil { return }
            guard context.masterPasswordFD != nil else { return }
            try context.save(try context.openVault(), compacting: true)
        } catch {
            context.streams.say("pwtui: the vault's journal was not compacted (\(error)); it is committed as it is")
        }
    }

    /// Commits the vault (and git's files beside it) when it changed; whether it did.
    private func commit(_ repository: GitRepository, paths: [String], identity: [String]) throws -> Bool {
        try repository.git(["add", "--"] + paths)
        guard try repository.git(["diff", "--cached", "--quiet"], quiet: true).status != 0 else { return false }
        let message = "pwtui: vault saved on \(HostName.current() ?? "localhost")"
        guard try repository.git(identity + ["commit", "-q", "-m", message, "--"] + paths).status == 0 else {
            throw CommandFailure(
                .ioError, "git could not commit the vault in \(repository.root) (see above); nothing was sent")
        }
        return true
    }

    /// Fetches the upstream branch: outside the vault's lock, since the network may be slow.
    private func fetch(_ repository: GitRepository) throws {
        guard try repository.git(["fetch", "-q"]).status == 0 else {
            throw CommandFailure(
                .ioError,
                "the remote could not be reached (see above); this machine's change is committed here "
                    + "and goes out with the next 'pwtui sync'; the vault is unchanged")
        }
    }

    /// Merges the fetched upstream branch; on failure, undoes a half-done merge so the vault file
    /// is as it was, and says why.
    private func merge(_ repository: GitRepository, identity: [String]) throws {
        guard try repository.git(identity + ["merge", "-q", "--no-edit", "@{upstream}"]).status == 0 else {
            try repository.git(["merge", "--abort"], quiet: true)
            throw CommandFailure(
                .ioError,
                "the other machines' changes could not be merged (see pwtui merge's reason above); "
                    + "nothing was changed here: fix that (pwtui unlock, for instance) and sync again")
        }
    }
}
