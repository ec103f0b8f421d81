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
        /// Another copy, merged into the session's vault.
        case copy(String)
    }

    public var files: Files

    public init(files: Files) {
        self.files = files
    }

    public func run(in session: Session) throws {
        let summary: ReconcileSummary
        let theirs: String
        switch files {
        case .driver(let base, let ours, let other):
            theirs = other
            let (base, ours, other) = (Self.absolute(base), Self.absolute(ours), Self.absolute(other))
            if let answer = try session.agent?.ask(.mergeFiles(base: base, ours: ours, theirs: other)) {
                summary = try Self.summary(of: answer.body)
            } else {
                let keyring = VaultKeyring(password: try session.masterPassword(prompt: "Master password (to merge the vault): "))
                summary = try VaultFileMerge.merge(base: base, ours: ours, theirs: other, keyring: keyring)
            }
        case .copy(let other):
            theirs = other
            let vault = session.vaultPath
            try VaultStorage.requireVaultFile(vault)
            try VaultStorage.requireVaultFile(other)
            let copyHeader = try VaultStorage.loadHeader(other)
            if let answer = try session.agent?.ask(.mergeCopy(vault: vault, copy: Self.absolute(other))) {
                summary = try Self.summary(of: answer.body)
            } else {
                let keyring = VaultKeyring(password: try session.masterPassword())
                summary = try VaultFileMerge.merge(copy: other, into: vault, keyring: keyring)
                session.rememberSaved(try VaultStorage.loadHeader(vault))
            }
            Self.rememberMerged(copyHeader, session)
        }
        if files == .copy(theirs) {
            StandardError.say("pwtui: merged \(theirs): \(summary); \(theirs) can be deleted now")
        } else {
            StandardError.say("pwtui: merged the vault with the other side's: \(summary)")
        }
    }

    /// `doctor` stops asking for a copy once it is merged; never fatal: it is only a reminder.
    static func rememberMerged(_ header: VaultHeader, _ session: Session) {
        var merged = MergedCopies.load(from: session.paths.mergedCopiesFile)
        merged.insert(header)
        try? merged.save(to: session.paths.mergedCopiesFile)
    }

    private static func summary(of reply: AgentReply) throws -> ReconcileSummary {
        guard case .merged(let summary) = reply else { throw AgentError.unexpected(reply) }
        return summary
    }

    /// The agent runs in another directory: paths go to it absolute.
    static func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    }
}
