import FoundationEssentials
import Platform
import UnicodeText
import VaultModel

/// `pwtui sync setup`: tells git, in the vault's repository, to merge the vault with
/// `pwtui merge` (a `.gitattributes` line and the driver in the repository's config), so that
/// two machines' changes are merged per credential instead of ending in a conflict on an
/// encrypted file.
public struct SetUpSync {
    public init() {}

    public func run(in context: CommandContext) throws {
        let vault = context.vaultPath
        try VaultStorage.requireVaultFile(vault)
        let repository = try GitRepository.containing(AtomicFile.split(vault).directory)
        let pattern = Self.attributesPattern(repository.relative(vault))
        let line = "\(pattern) merge=pwtui -diff -text"
        let attributes = repository.root + "/.gitattributes"
        // Both files checked before either is written: a link at the second must not leave the
        // first half set up.
        for file in [attributes, repository.root + "/.gitignore"] {
            do { _ = try RegularFile.readIfPresent(file, links: .refuse) } catch {
                throw Self.refusal(error, file: file)
            }
        }
        try Self.appendMissing([line], to: attributes)
        // What the save protocol leaves beside the vault is this machine's own: never committed.
        let name = AtomicFile.split(repository.relative(vault)).name
        let directory = AtomicFile.split(repository.relative(vault)).directory
        let prefix = directory == "." ? "/" : "/" + directory + "/"
        let escaped = String(Self.attributesPattern(name).dropFirst())
        try Self.appendMissing(
            [prefix + escaped + ".lock", prefix + escaped + ".bak", prefix + "." + escaped + ".tmp-*"],
            to: repository.root + "/.gitignore")
        let driver = "\(ShellWord.quoted(CurrentProcess.executablePath)) merge %O %A %B"
        for (key, value) in [
            ("merge.pwtui.name", "pwtui: merge copies of a vault per credential"), ("merge.pwtui.driver", driver),
        ] {
            guard try repository.git(["config", key, value]).status == 0 else {
                throw CommandFailure(.ioError, "git config \(key) failed in \(repository.root)")
            }
        }
        try context.streams.write(PrintableText.escaped("\(attributes): \(line)") + "\n")
        try context.streams.write("git config merge.pwtui.driver \"\(driver)\"\n")
        context.streams.say(
            "pwtui: set up; 'pwtui sync' commits the vault (and .gitattributes), pulls, merges and pushes.")
    }

    /// Adds the lines `file` lacks at its end. The file is in a repository whose contents come
    /// from elsewhere: a `.gitattributes` that is a link to `~/.ssh/id_ed25519` would otherwise be
    /// read, replaced by a regular file holding the key, and pushed by the next `sync`. So a link
    /// is refused, never followed (git itself ignores these files when they are links).
    static func appendMissing(_ lines: [String], to file: String) throws {
        let existing: String
        do {
            existing = try RegularFile.textIfPresent(file, links: .refuse) ?? ""
        } catch {
            throw Self.refusal(error, file: file)
        }
        let present = Set(existing.split(separator: "\n").map(String.init))
        let missing = lines.filter { !present.contains($0) }
        guard !missing.isEmpty else { return }
        let text =
            existing + (existing.isEmpty || existing.hasSuffix("\n") ? "" : "\n") + missing.joined(separator: "\n")
            + "\n"
        try AtomicFile.write(Data(text.utf8), to: file)
    }

    /// Why a file of the repository is not used, and what to do about it.
    static func refusal(_ failure: RegularFile.Failure, file: String) -> CommandFailure {
        switch failure {
        case .symbolicLink, .notRegular:
            let what = failure == .symbolicLink(path: file) ? "a symbolic link" : "not a regular file"
            return CommandFailure(
                .ioError,
                "\(file) is \(what); pwtui does not follow it, and git ignores such a file "
                    + "(a link there could point at any file of yours): replace it with a regular file, then run 'pwtui sync setup' again"
            )
        case .tooLarge, .system:
            return CommandFailure(.ioError, "\(failure); nothing was changed")
        }
    }

    /// A .gitattributes pattern for one file: anchored to the top, with git's specials escaped.
    static func attributesPattern(_ relative: String) -> String {
        var escaped = ""
        for character in relative {
            if " \\*?[#!\"".contains(character) { escaped.append("\\") }
            escaped.append(character)
        }
        return "/" + escaped
    }
}
