import FoundationEssentials
import Platform
import UnicodeText
import VaultModel

/// `pwtui doctor`: looks at the vault without unlocking it and says what needs attention, each
/// with the command that deals with it — conflict copies a file-sync service left beside the
/// vault (`pwtui merge`), an older copy than this machine has seen (the rollback warning), a
/// vault others can read, a git repository that does not know how to merge the vault.
public struct Doctor {
    public init() {}

    /// One finding; `command` is what to run about it.
    public struct Finding: Equatable, Sendable {
        public var message: String
        public var command: String?
    }

    public func run(in context: CommandContext) throws {
        let choice = context.vaultChoice
        try context.streams.write("vault: \(choice.path) (named by \(choice.source.description))\n")
        let findings = try check(context)
        if findings.isEmpty {
            try context.streams.write("ok: \(PrintableText.escaped(context.vaultPath)) looks fine\n")
            return
        }
        // File names come from whoever could write beside the vault (a sync service's copy named
        // with `ESC ]2;` would retitle the window): each line is shown escaped, one line each.
        for finding in findings {
            try context.streams.write(
                "- \(PrintableText.escaped(finding.message))\n"
                    + (finding.command.map { "  run: \(PrintableText.escaped($0))\n" } ?? ""))
        }
    }

    func check(_ context: CommandContext) throws -> [Finding] {
        let vault = context.vaultPath
        let (header, version) = try VaultStorage.loadVersion(vault)
        var findings: [Finding] = []
        if let status = try? FileSystem.status(vault), status.permissions & 0o077 != 0 {
            findings.append(
                Finding(
                    message:
                        "\(vault) can be read by other users (mode \(String(status.permissions & 0o777, radix: 8)))",
                    command: "chmod 600 \(ShellWord.quoted(vault))"))
        }
        var memory = GenerationMemory.load(from: context.paths.generationsFile)
        if let seen = memory.opened(header, at: version) {
            findings.append(
                Finding(
                    message:
                        "\(vault) is \(version), but \(seen) was seen on this machine: "
                        + "it is an older copy; look for the newer one and merge it", command: nil))
        }
        let (directory, _) = AtomicFile.split(vault)
        if !FileSystem.isWritableDirectory(directory) {
            findings.append(
                Finding(
                    message:
                        "the folder \(directory) is read-only: the vault opens, but no change can be saved (a save writes a new file beside it)",
                    command: "chmod u+w \(ShellWord.quoted(directory))"))
        }
        let merged = MergedCopies.load(from: context.paths.mergedCopiesFile)
        for copy in Self.conflictCopies(of: vault) {
            guard let (other, otherVersion) = try? VaultStorage.loadVersion(copy), other.vaultID == header.vaultID
            else { continue }
            if merged.contains(other, at: otherVersion) {
                findings.append(
                    Finding(
                        message: "\(copy) is a conflict copy already merged into the vault; it can be deleted",
                        command: "rm \(ShellWord.quoted(copy))"))
                continue
            }
            let older =
                memory.seen(above: other, at: otherVersion).map {
                    "; it is below \($0), seen here: an older copy, or one changed apart with fewer saves (merging it never undoes what changed since)"
                } ?? ""
            findings.append(
                Finding(
                    message:
                        "\(copy) is a conflict copy of the vault (\(otherVersion)) that a sync service left"
                        + older,
                    command: "pwtui merge \(ShellWord.quoted(copy))"
                        + (context.vaultPath == context.paths.defaultVaultFile
                            ? "" : " --vault \(ShellWord.quoted(vault))")))
        }
        if let repository = try? GitRepository.containing(AtomicFile.split(vault).directory),
            try repository.config("merge.pwtui.driver") == nil
        {
            findings.append(
                Finding(
                    message:
                        "\(vault) is in the git repository \(repository.root), which does not know how to merge it",
                    command: "pwtui sync setup"))
        }
        return findings
    }

    /// Files beside `vault` named the way Syncthing (`vault.sync-conflict-…​.pwtui`), Dropbox and
    /// Nextcloud (`vault (… conflicted copy …).pwtui`) name a copy they could not reconcile.
    static func conflictCopies(of vault: String) -> [String] {
        let (directory, name) = AtomicFile.split(vault)
        let stem = name.split(separator: ".", omittingEmptySubsequences: false).first.map(String.init) ?? name
        let suffix = String(name.dropFirst(stem.count))  // ".pwtui": a copy's own `.bak` or `.lock` is no copy
        guard let names = try? FileSystem.entries(of: directory) else { return [] }
        return names.filter { candidate in
            candidate != name && candidate.hasPrefix(stem) && candidate.hasSuffix(suffix)
                && (candidate.contains(".sync-conflict-") || candidate.contains("conflicted copy"))
        }.sorted().map { directory + "/" + $0 }
    }
}
